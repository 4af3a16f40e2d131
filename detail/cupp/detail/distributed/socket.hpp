// POSIX TCP sockets for the store: an owning descriptor, IPv4 name
// resolution, a listening socket, and deadline-bounded connect/send/recv on
// non-blocking sockets, so that no call on a dead or silent peer can block
// past its deadline.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <utility>

#include <cupp/distributed/store_errors.hpp>

namespace cupp::distributed::detail {

using store_clock = std::chrono::steady_clock;

inline std::string errno_text(int error) {
  char buffer[256];
  // The GNU strerror_r may return a static string instead of filling buffer.
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
  return ::strerror_r(error, buffer, sizeof buffer);
#else
  if (::strerror_r(error, buffer, sizeof buffer) != 0) return "error " + std::to_string(error);
  return buffer;
#endif
}

class socket_fd {
 public:
  socket_fd() = default;
  explicit socket_fd(int fd) noexcept : fd_(fd) {}
  socket_fd(socket_fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  socket_fd& operator=(socket_fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  socket_fd(const socket_fd&) = delete;
  socket_fd& operator=(const socket_fd&) = delete;
  ~socket_fd() { reset(); }

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  void reset() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

inline std::string endpoint_name(const std::string& host, int port) {
  return host + ":" + std::to_string(port);
}

// Milliseconds left until `deadline` as poll() wants them: never negative,
// rounded up so that a poll does not return just before the deadline.
inline int poll_milliseconds(store_clock::time_point deadline) {
  const auto left = deadline - store_clock::now();
  if (left <= store_clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return static_cast<int>(std::min<long long>(ms, 1 << 30));
}

// The first IPv4 address of `host`. A name that does not exist fails at once;
// a temporary resolver failure is the caller's to retry.
inline bool resolve_ipv4(const std::string& host, int port, sockaddr_in& address,
                         std::string& failure) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc != 0) {
    failure = "cannot resolve host '" + host + "': " + ::gai_strerror(rc);
    if (rc == EAI_AGAIN) return false;
    throw store_error("tcp_store: " + failure);
  }
  std::memcpy(&address, found->ai_addr, sizeof address);
  ::freeaddrinfo(found);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  return true;
}

// Whether a server for `host` should listen on the loopback interface only:
// when the host is spelled as one ("localhost", "127.0.0.1"), the job is
// meant for this machine. A machine's own name may also resolve to a
// loopback address (Debian's 127.0.1.1), yet other machines reach it under
// that name through its real address, so names serve every interface.
inline bool names_loopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr literal{};
  return ::inet_pton(AF_INET, host.c_str(), &literal) == 1 && (ntohl(literal.s_addr) >> 24) == 127;
}

inline void set_no_delay(int fd) {
  // Requests are small and answered one at a time: Nagle's algorithm would
  // hold each one back for a round trip.
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// A non-blocking listening socket on `address` (SO_REUSEADDR, so that a
// job restarted at once can serve on the port of the one that just ended).
inline socket_fd listen_ipv4(const sockaddr_in& address) {
  const auto where = [&] { return "port " + std::to_string(ntohs(address.sin_port)); };
  socket_fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) throw store_error("tcp_store: socket(): " + errno_text(errno));
  const int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
    throw store_error("tcp_store: cannot serve on " + where() + ": " + errno_text(errno));
  if (::listen(fd.get(), SOMAXCONN) != 0)
    throw store_error("tcp_store: cannot listen on " + where() + ": " + errno_text(errno));
  return fd;
}

inline int local_port(int fd) {
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length) != 0)
    throw store_error("tcp_store: getsockname(): " + errno_text(errno));
  return ntohs(bound.sin_port);
}

// One connection attempt, bounded by `deadline`. Returns an invalid
// descriptor and sets `failure` when the peer refused or did not answer.
inline socket_fd try_connect(const sockaddr_in& address, store_clock::time_point deadline,
                             std::string& failure) {
  socket_fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) throw store_error("tcp_store: socket(): " + errno_text(errno));
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    if (errno != EINPROGRESS) {
      failure = errno_text(errno);
      return {};
    }
    pollfd waiting{fd.get(), POLLOUT, 0};
    int ready;
    do {
      ready = ::poll(&waiting, 1, poll_milliseconds(deadline));
    } while (ready < 0 && errno == EINTR);
    if (ready <= 0) {
      failure = ready == 0 ? "no answer" : errno_text(errno);
      return {};
    }
    int error = 0;
    socklen_t length = sizeof error;
    ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0) {
      failure = errno_text(error);
      return {};
    }
  }
  set_no_delay(fd.get());
  return fd;
}

// Waits until `fd` is ready for `events` or the deadline passes (false).
// A hang-up or error counts as ready: the following send/recv reports it.
inline bool wait_ready(int fd, short events, store_clock::time_point deadline) {
  pollfd waiting{fd, events, 0};
  for (;;) {
    const int ready = ::poll(&waiting, 1, poll_milliseconds(deadline));
    if (ready > 0) return true;
    if (ready == 0) return false;
    if (errno != EINTR) throw store_error("tcp_store: poll(): " + errno_text(errno));
  }
}

enum class io_status { done, closed, timed_out };

// Sends all of `bytes` by `deadline`. MSG_NOSIGNAL: a peer that closed its
// end gives EPIPE here instead of a SIGPIPE that would end the process.
inline io_status send_all(int fd, std::span<const std::byte> bytes,
                          store_clock::time_point deadline, int& error) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      bytes = bytes.subspan(static_cast<std::size_t>(sent));
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_ready(fd, POLLOUT, deadline)) return io_status::timed_out;
      continue;
    }
    error = errno;
    return io_status::closed;
  }
  return io_status::done;
}

// Fills all of `bytes` by `deadline`; `closed` when the peer ended the
// connection (or it broke) first.
inline io_status recv_all(int fd, std::span<std::byte> bytes, store_clock::time_point deadline,
                          int& error) {
  while (!bytes.empty()) {
    const ssize_t got = ::recv(fd, bytes.data(), bytes.size(), MSG_DONTWAIT);
    if (got > 0) {
      bytes = bytes.subspan(static_cast<std::size_t>(got));
      continue;
    }
    if (got == 0) {
      error = 0;
      return io_status::closed;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_ready(fd, POLLIN, deadline)) return io_status::timed_out;
      continue;
    }
    error = errno;
    return io_status::closed;
  }
  return io_status::done;
}

}  // namespace cupp::distributed::detail
