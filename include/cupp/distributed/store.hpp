// cupyx.distributed's TCPStore for cupp: the key-value store through which
// the processes of one job find each other. Rank 0 serves it (a background
// thread of its tcp_store); every rank, rank 0 too, is a client. Keys are
// strings, values are bytes. get and wait block until the keys exist, up to
// a timeout, so that one rank can publish (NCCL's unique id, an address)
// and the others read it without polling:
//
//   cupp::distributed::tcp_store store("node0", 29500, rank == 0);
//   store.set("rank/" + std::to_string(rank), my_address);
//   std::string first = store.get_string("rank/0");
//   store.barrier("ready", world_size, std::chrono::seconds(60));
//
// Every call is one request and one reply over TCP (IPv4). Failures are
// exceptions: store_timeout when a wait runs out of time, store_error when
// the store cannot be reached or its process went away (at once, not after
// the timeout). One tcp_store may be used from several threads.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <cupp/detail/distributed/socket.hpp>
#include <cupp/detail/distributed/store_client.hpp>
#include <cupp/detail/distributed/store_protocol.hpp>
#include <cupp/detail/distributed/store_server.hpp>
#include <cupp/distributed/store_errors.hpp>
#include <cupp/errors.hpp>

namespace cupp::distributed {

class tcp_store {
 public:
  // With is_server, this process serves the store on `port` (0: an
  // ephemeral port, which port() then tells). A host spelled as a loopback
  // address ("localhost", "127.0.0.1") is served on that address only, any
  // other host on every IPv4 interface of the machine, so that the other
  // machines reach it whatever this machine's own name resolves to. Every
  // tcp_store then connects to host:port as a client, retrying until
  // `timeout` (its server may not be up yet); `timeout` is also how long
  // get, wait and each request may take.
  tcp_store(std::string host, int port, bool is_server,
            std::chrono::milliseconds timeout = std::chrono::seconds(300))
      : host_(std::move(host)), timeout_(detail::bounded_timeout(timeout)) {
    if (port < 0 || port > 65535)
      throw value_error("tcp_store: port " + std::to_string(port) + " is not in [0, 65535]");
    if (port == 0 && !is_server)
      throw value_error(
          "tcp_store: a client needs the server's port (port 0 is only for a server)");
    if (timeout < std::chrono::milliseconds::zero())
      throw value_error("tcp_store: the timeout must not be negative");
    if (is_server) {
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_addr.s_addr = htonl(INADDR_ANY);
      if (detail::names_loopback(host_)) {
        std::string unused;
        detail::resolve_ipv4(host_, port, address, unused);
      }
      address.sin_port = htons(static_cast<std::uint16_t>(port));
      server_ = std::make_unique<detail::store_server>(address);
      port = server_->port();
    }
    port_ = port;
    connection_ = std::make_unique<detail::store_connection>(host_, port_, timeout_);
  }

  // The server (if any) stops after this process's own connection closed;
  // other clients still connected then get store_error on their next call.
  ~tcp_store() = default;
  tcp_store(tcp_store&&) noexcept = default;
  tcp_store& operator=(tcp_store&&) noexcept = default;
  tcp_store(const tcp_store&) = delete;
  tcp_store& operator=(const tcp_store&) = delete;

  const std::string& host() const noexcept { return host_; }
  int port() const noexcept { return port_; }
  bool is_server() const noexcept { return server_ != nullptr; }
  std::chrono::milliseconds timeout() const noexcept { return timeout_; }

  void set(std::string_view key, std::span<const std::byte> value) {
    auto request = detail::frame_writer(detail::store_op::set).text(key).blob(value).finish();
    expect(round_trip(request, timeout_), detail::store_status::ok);
  }
  void set(std::string_view key, std::string_view value) {
    set(key, std::as_bytes(std::span(value.data(), value.size())));
  }

  // The value of `key`, waiting for a set of it up to timeout()
  // (store_timeout after that).
  std::vector<std::byte> get(std::string_view key) {
    auto request =
        detail::frame_writer(detail::store_op::get).i64(timeout_.count()).text(key).finish();
    auto body = round_trip(request, timeout_ + reply_margin);
    detail::frame_reader reply(body);
    const auto status = static_cast<detail::store_status>(reply.u8());
    if (status == detail::store_status::timed_out)
      throw store_timeout("tcp_store: get timed out after " + detail::milliseconds_text(timeout_) +
                          " waiting for key '" + std::string(key) + "'");
    if (status != detail::store_status::value) malformed();
    return reply.blob();
  }
  std::string get_string(std::string_view key) {
    const auto value = get(key);
    return std::string(reinterpret_cast<const char*>(value.data()), value.size());
  }

  // The value of `key` if it is set now, without waiting.
  std::optional<std::vector<std::byte>> try_get(std::string_view key) {
    auto request = detail::frame_writer(detail::store_op::try_get).text(key).finish();
    auto body = round_trip(request, timeout_);
    detail::frame_reader reply(body);
    const auto status = static_cast<detail::store_status>(reply.u8());
    if (status == detail::store_status::not_found) return std::nullopt;
    if (status != detail::store_status::value) malformed();
    return reply.blob();
  }

  // Adds `delta` to the integer at `key` (a missing key counts as 0) in
  // one step on the server, and returns the new value. The value is kept as
  // decimal text: get_string reads it, and adding to a key whose value is
  // not an integer is a value_error.
  std::int64_t add(std::string_view key, std::int64_t delta) {
    auto request = detail::frame_writer(detail::store_op::add).text(key).i64(delta).finish();
    auto body = round_trip(request, timeout_);
    detail::frame_reader reply(body);
    const auto status = static_cast<detail::store_status>(reply.u8());
    if (status == detail::store_status::failed) throw value_error("tcp_store: " + reply.text());
    if (status != detail::store_status::integer) malformed();
    return reply.i64();
  }

  // Whether every one of `keys` is set now.
  bool check(std::span<const std::string> keys) {
    detail::frame_writer request(detail::store_op::check);
    write_keys(request, keys);
    return read_boolean(round_trip(request.finish(), timeout_));
  }

  // Returns once every one of `keys` is set; store_timeout, naming the keys
  // still missing, after timeout() or `timeout`.
  void wait(std::span<const std::string> keys) { wait(keys, timeout_); }
  void wait(std::span<const std::string> keys, std::chrono::milliseconds timeout) {
    timeout = detail::bounded_timeout(timeout);
    detail::frame_writer request(detail::store_op::wait);
    request.i64(timeout.count());
    write_keys(request, keys);
    auto body = round_trip(request.finish(), timeout + reply_margin);
    detail::frame_reader reply(body);
    const auto status = static_cast<detail::store_status>(reply.u8());
    if (status == detail::store_status::timed_out)
      throw store_timeout("tcp_store: wait timed out after " + detail::milliseconds_text(timeout) +
                          "; keys still missing: " + detail::quoted_keys(reply.texts()));
    if (status != detail::store_status::ok) malformed();
  }

  // Removes `key`; whether it was set.
  bool erase(std::string_view key) {
    auto request = detail::frame_writer(detail::store_op::erase).text(key).finish();
    return read_boolean(round_trip(request, timeout_));
  }

  // Returns once all `n` processes calling barrier(name, n) have called it;
  // store_timeout (saying how many had) after `timeout`. The same name may
  // be used again for the next barrier: each round of n arrivals is a
  // generation of its own.
  void barrier(std::string_view name, int n, std::chrono::milliseconds timeout) {
    if (n < 1) throw value_error("tcp_store: barrier needs n >= 1, got " + std::to_string(n));
    const std::string base = "cupp/barrier/" + std::string(name);
    const std::int64_t ticket = add(base + "/arrived", 1);
    const std::int64_t generation = (ticket - 1) / n;
    const std::array<std::string, 1> done{base + "/done/" + std::to_string(generation)};
    if (ticket % n == 0) set(done[0], "1");
    try {
      wait(done, timeout);
    } catch (const store_timeout&) {
      const std::int64_t arrived = add(base + "/arrived", 0) - generation * n;
      throw store_timeout("tcp_store: barrier '" + std::string(name) + "' timed out after " +
                          detail::milliseconds_text(timeout) + ": " +
                          std::to_string(std::min<std::int64_t>(arrived, n)) + " of " +
                          std::to_string(n) + " processes arrived");
    }
  }

 private:
  // How much longer than a wait's own timeout the client gives the server
  // to answer it, before taking the server for hung.
  static constexpr std::chrono::milliseconds reply_margin{5000};

  std::vector<std::byte> round_trip(std::span<const std::byte> request,
                                    std::chrono::milliseconds answer_within) {
    std::lock_guard lock(*mutex_);
    return connection_->request(request, answer_within);
  }

  static void write_keys(detail::frame_writer& request, std::span<const std::string> keys) {
    if (keys.size() > UINT32_MAX) throw value_error("tcp_store: too many keys");
    request.u32(static_cast<std::uint32_t>(keys.size()));
    for (const auto& key : keys) request.text(key);
  }

  void expect(const std::vector<std::byte>& body, detail::store_status wanted) {
    detail::frame_reader reply(body);
    if (static_cast<detail::store_status>(reply.u8()) != wanted) malformed();
  }

  bool read_boolean(const std::vector<std::byte>& body) {
    detail::frame_reader reply(body);
    if (static_cast<detail::store_status>(reply.u8()) != detail::store_status::boolean) malformed();
    return reply.u8() != 0;
  }

  [[noreturn]] void malformed() {
    std::lock_guard lock(*mutex_);
    connection_->fail("unexpected reply");
  }

  std::string host_;
  int port_ = 0;
  std::chrono::milliseconds timeout_;
  // Declared before the connection so that it is destroyed after it: the
  // server stops once this process's own client is gone.
  std::unique_ptr<detail::store_server> server_;
  std::unique_ptr<detail::store_connection> connection_;
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();
};

}  // namespace cupp::distributed
