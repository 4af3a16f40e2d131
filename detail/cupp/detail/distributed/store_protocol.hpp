// The store's wire format. Every message is a frame: an 8-byte little-endian
// body length, then the body. A request body starts with its operation, a
// reply body with its status. Strings (keys, messages) are a 4-byte length
// and their bytes; a value is an 8-byte length and its bytes. Integers are
// little-endian whatever the machines, so that mixed hosts agree.
//
//   hello    u64 request magic            -> ok u64 reply magic, u32 version
//   set      key, value                   -> ok
//   get      i64 ms, key                  -> value | timed_out (missing keys)
//   try_get  key                          -> value | not_found
//   add      key, i64 delta               -> integer | failed (message)
//   check    u32 n, n keys                -> boolean
//   wait     i64 ms, u32 n, n keys        -> ok | timed_out (missing keys)
//   erase    key                          -> boolean
//
// get and wait are parked by the server until their keys exist or their
// time runs out, so that the server, not the client, answers a timeout and
// the connection stays in step.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <cupp/distributed/store_errors.hpp>

namespace cupp::distributed::detail {

enum class store_op : std::uint8_t { hello = 1, set, get, try_get, add, check, wait, erase };

enum class store_status : std::uint8_t {
  ok = 0,
  value,
  not_found,
  integer,
  boolean,
  timed_out,
  failed
};

inline constexpr std::uint64_t hello_request_magic = 0x63757070'73746f72ULL;  // "cuppstor"
inline constexpr std::uint64_t hello_reply_magic = 0x63757070'72656164ULL;    // "cuppread"
inline constexpr std::uint32_t protocol_version = 1;
inline constexpr std::size_t frame_header_bytes = 8;
// Larger frames are taken for garbage (a stranger on the port) rather than
// allocated.
inline constexpr std::uint64_t max_frame_bytes = std::uint64_t{1} << 32;

// Waits longer than this are taken as "wait for a very long time": the
// limit keeps deadlines (now + timeout) from overflowing the clock.
inline constexpr std::chrono::milliseconds max_store_timeout = std::chrono::hours(24 * 30);

inline std::chrono::milliseconds bounded_timeout(std::chrono::milliseconds timeout) {
  return std::clamp(timeout, std::chrono::milliseconds::zero(), max_store_timeout);
}

// A frame being written; its length prefix is filled in by `finish`.
class frame_writer {
 public:
  frame_writer() : bytes_(frame_header_bytes) {}
  explicit frame_writer(store_op op) : frame_writer() { u8(static_cast<std::uint8_t>(op)); }
  explicit frame_writer(store_status status) : frame_writer() {
    u8(static_cast<std::uint8_t>(status));
  }

  frame_writer& u8(std::uint8_t value) {
    bytes_.push_back(static_cast<std::byte>(value));
    return *this;
  }
  frame_writer& u32(std::uint32_t value) { return little_endian(value, 4); }
  frame_writer& u64(std::uint64_t value) { return little_endian(value, 8); }
  frame_writer& i64(std::int64_t value) { return u64(static_cast<std::uint64_t>(value)); }
  frame_writer& text(std::string_view value) {
    if (value.size() > UINT32_MAX) throw store_error("tcp_store: a key longer than 4 GiB");
    u32(static_cast<std::uint32_t>(value.size()));
    return raw(std::as_bytes(std::span(value.data(), value.size())));
  }
  frame_writer& blob(std::span<const std::byte> value) {
    u64(value.size());
    return raw(value);
  }

  // Hands the frame over; the writer is empty afterwards.
  std::vector<std::byte> finish() {
    std::uint64_t body = bytes_.size() - frame_header_bytes;
    for (std::size_t i = 0; i < frame_header_bytes; ++i, body >>= 8)
      bytes_[i] = static_cast<std::byte>(body & 0xff);
    return std::move(bytes_);
  }

 private:
  frame_writer& little_endian(std::uint64_t value, int count) {
    for (int i = 0; i < count; ++i, value >>= 8)
      bytes_.push_back(static_cast<std::byte>(value & 0xff));
    return *this;
  }
  frame_writer& raw(std::span<const std::byte> value) {
    bytes_.insert(bytes_.end(), value.begin(), value.end());
    return *this;
  }

  std::vector<std::byte> bytes_;
};

inline std::uint64_t read_little_endian(const std::byte* at, int count) {
  std::uint64_t value = 0;
  for (int i = count - 1; i >= 0; --i) value = (value << 8) | std::to_integer<std::uint64_t>(at[i]);
  return value;
}

// The body length a frame header announces.
inline std::uint64_t frame_body_bytes(std::span<const std::byte> header) {
  return read_little_endian(header.data(), frame_header_bytes);
}

// Reads the fields of one frame body; running past its end is a protocol
// error (store_error), never a read out of bounds.
class frame_reader {
 public:
  explicit frame_reader(std::span<const std::byte> body) : body_(body) {}

  std::uint8_t u8() { return static_cast<std::uint8_t>(read_little_endian(take(1), 1)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(read_little_endian(take(4), 4)); }
  std::uint64_t u64() { return read_little_endian(take(8), 8); }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  std::string text() {
    const std::uint32_t size = u32();
    const std::byte* at = take(size);
    return std::string(reinterpret_cast<const char*>(at), size);
  }
  std::vector<std::byte> blob() {
    const std::uint64_t size = u64();
    const std::byte* at = take(size);
    return std::vector<std::byte>(at, at + size);
  }
  std::vector<std::string> texts() {
    const std::uint32_t count = u32();
    // Every key takes at least its 4-byte length: a count larger than the
    // rest of the frame allows is garbage, not a reason to reserve memory.
    if (count > (body_.size() - position_) / 4) throw store_error("tcp_store: malformed message");
    std::vector<std::string> values;
    values.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) values.push_back(text());
    return values;
  }
  bool at_end() const noexcept { return position_ == body_.size(); }

 private:
  const std::byte* take(std::uint64_t count) {
    if (count > body_.size() - position_) throw store_error("tcp_store: malformed message");
    const std::byte* at = body_.data() + position_;
    position_ += count;
    return at;
  }

  std::span<const std::byte> body_;
  std::size_t position_ = 0;
};

}  // namespace cupp::distributed::detail
