// The client half of tcp_store: one connection to the server, made by
// retrying until the store's timeout (the server may start after its
// clients), then one request and one reply at a time, each bounded by a
// deadline. Any failure mid-request leaves the byte stream out of step, so
// the connection is then closed for good and every later request fails at
// once instead of reading someone else's reply.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <cupp/detail/distributed/socket.hpp>
#include <cupp/detail/distributed/store_protocol.hpp>
#include <cupp/distributed/store_errors.hpp>

namespace cupp::distributed::detail {

inline std::string milliseconds_text(std::chrono::milliseconds ms) {
  return std::to_string(ms.count()) + " ms";
}

// 'a', 'b', 'c' (and 7 more)
inline std::string quoted_keys(const std::vector<std::string>& keys) {
  constexpr std::size_t shown = 8;
  std::string text;
  for (std::size_t i = 0; i < keys.size() && i < shown; ++i)
    text += (i ? ", '" : "'") + keys[i] + "'";
  if (keys.size() > shown) text += " (and " + std::to_string(keys.size() - shown) + " more)";
  return text;
}

class store_connection {
 public:
  store_connection(const std::string& host, int port, std::chrono::milliseconds timeout)
      : where_(endpoint_name(host, port)) {
    const auto deadline = store_clock::now() + timeout;
    std::string failure = "no attempt";
    sockaddr_in address{};
    bool resolved = false;
    auto pause = std::chrono::milliseconds(5);
    for (;;) {
      if (!resolved) resolved = resolve_ipv4(host, port, address, failure);
      if (resolved) {
        socket_fd fd = try_connect(address, deadline, failure);
        if (fd.valid() && shake_hands(fd, deadline, failure)) {
          fd_ = std::move(fd);
          return;
        }
      }
      const auto now = store_clock::now();
      if (now >= deadline)
        throw store_error("tcp_store: could not connect to the store at " + where_ + " within " +
                          milliseconds_text(timeout) + " (last attempt: " + failure + ")");
      // Backing off keeps a job of many ranks from hammering a server that
      // is still starting, without delaying the common case much.
      std::this_thread::sleep_for(std::min<store_clock::duration>(pause, deadline - now));
      pause = std::min(pause * 2, std::chrono::milliseconds(250));
    }
  }

  const std::string& where() const noexcept { return where_; }

  // Sends one request and returns the reply's body; the server must answer
  // within `answer_within` (a client-side limit, beyond any wait the server
  // itself times).
  std::vector<std::byte> request(std::span<const std::byte> frame,
                                 std::chrono::milliseconds answer_within) {
    if (!broken_.empty())
      throw store_error("tcp_store: the connection to the store at " + where_ +
                        " failed earlier: " + broken_);
    const auto deadline = store_clock::now() + answer_within;
    int error = 0;
    check(send_all(fd_.get(), frame, deadline, error), error, answer_within);
    std::byte header[frame_header_bytes];
    check(recv_all(fd_.get(), header, deadline, error), error, answer_within);
    const std::uint64_t body_bytes = frame_body_bytes(header);
    if (body_bytes == 0 || body_bytes > max_frame_bytes) fail("malformed reply");
    std::vector<std::byte> body(body_bytes);
    check(recv_all(fd_.get(), body, deadline, error), error, answer_within);
    return body;
  }

  // Closes the connection for good and throws store_error: for a reply that
  // makes no sense, after which the stream cannot be trusted.
  [[noreturn]] void fail(const std::string& reason) {
    fd_.reset();
    broken_ = reason;
    throw store_error("tcp_store: the connection to the store at " + where_ + " failed: " + reason);
  }

 private:
  void check(io_status status, int error, std::chrono::milliseconds answer_within) {
    if (status == io_status::done) return;
    if (status == io_status::closed)
      fail(error == 0 ? "the store closed the connection (has its process exited?)"
                      : errno_text(error));
    fd_.reset();
    broken_ = "no answer within " + milliseconds_text(answer_within);
    throw store_timeout("tcp_store: the store at " + where_ + " did not answer within " +
                        milliseconds_text(answer_within) + "; the connection is closed");
  }

  // Makes sure the peer is a store: a stray service on the port, or a
  // socket connected to itself (possible when the port is in the ephemeral
  // range and nothing listens yet), would otherwise pass for one.
  static bool shake_hands(const socket_fd& fd, store_clock::time_point deadline,
                          std::string& failure) {
    const auto hello = frame_writer(store_op::hello).u64(hello_request_magic).finish();
    int error = 0;
    std::byte reply[frame_header_bytes + 13];
    if (send_all(fd.get(), hello, deadline, error) != io_status::done ||
        recv_all(fd.get(), std::span(reply).first(frame_header_bytes), deadline, error) !=
            io_status::done) {
      failure = error ? errno_text(error) : "the connection closed during the handshake";
      return false;
    }
    if (frame_body_bytes(reply) != 13 ||
        recv_all(fd.get(), std::span(reply).subspan(frame_header_bytes), deadline, error) !=
            io_status::done) {
      failure = "the peer is not a cupp store";
      return false;
    }
    frame_reader answer{std::span(reply).subspan(frame_header_bytes)};
    if (answer.u8() != static_cast<std::uint8_t>(store_status::ok) ||
        answer.u64() != hello_reply_magic) {
      failure = "the peer is not a cupp store";
      return false;
    }
    const std::uint32_t version = answer.u32();
    if (version != protocol_version)
      throw store_error("tcp_store: the store speaks protocol version " + std::to_string(version) +
                        ", this client " + std::to_string(protocol_version));
    return true;
  }

  std::string where_;
  socket_fd fd_;
  std::string broken_;
};

}  // namespace cupp::distributed::detail
