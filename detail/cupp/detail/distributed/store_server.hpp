// The server half of tcp_store: one background thread that poll()s the
// listening socket, every client connection and a wake-up pipe. Requests
// are answered in the order each client sent them; a get or wait whose keys
// are missing is parked with its deadline and answered when a set or add
// completes it or the deadline passes, so that no client ever polls.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cupp/detail/distributed/socket.hpp>
#include <cupp/detail/distributed/store_protocol.hpp>
#include <cupp/distributed/store_errors.hpp>

namespace cupp::distributed::detail {

class store_server {
 public:
  // Listens on `address` (its port may be 0: an ephemeral one, see port())
  // and starts serving; throws store_error when the port cannot be had.
  explicit store_server(const sockaddr_in& address) : listener_(listen_ipv4(address)) {
    port_ = local_port(listener_.get());
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0)
      throw store_error("tcp_store: pipe2(): " + errno_text(errno));
    wake_read_ = socket_fd(ends[0]);
    wake_write_ = socket_fd(ends[1]);
    thread_ = std::thread([this] { run(); });
  }

  // Stops the thread and closes every connection: clients still connected
  // get store_error on their next request.
  ~store_server() {
    const char stop = 1;
    while (::write(wake_write_.get(), &stop, 1) < 0 && errno == EINTR) {
    }
    thread_.join();
  }

  store_server(const store_server&) = delete;
  store_server& operator=(const store_server&) = delete;

  int port() const noexcept { return port_; }

 private:
  struct peer {
    socket_fd fd;
    std::vector<std::byte> input;  // received bytes; the first input_used are served
    std::size_t input_used = 0;
    std::vector<std::byte> output;  // replies not yet sent, from output_sent on
    std::size_t output_sent = 0;
    bool gone = false;
    // The parked get (wants_value) or wait, while parked.
    bool parked = false;
    bool wants_value = false;
    std::vector<std::string> keys;
    store_clock::time_point deadline;
  };

  void run() noexcept {
    std::vector<pollfd> polled;
    for (;;) {
      polled.clear();
      polled.push_back({wake_read_.get(), POLLIN, 0});
      polled.push_back({listener_.get(), POLLIN, 0});
      for (const auto& p : peers_) {
        const bool sending = p->output_sent < p->output.size();
        polled.push_back({p->fd.get(), static_cast<short>(POLLIN | (sending ? POLLOUT : 0)), 0});
      }
      const int ready = ::poll(polled.data(), polled.size(), next_deadline_ms());
      if (ready < 0 && errno != EINTR) {
        // Nothing sensible is left to do; closing every connection tells
        // the clients at once instead of leaving them to their timeouts.
        peers_.clear();
        listener_.reset();
        return;
      }
      if (ready > 0) {
        if (polled[0].revents != 0) return;
        if (polled[1].revents != 0) accept_peers();
        // New peers sit after the polled ones and are served next round.
        for (std::size_t i = 2; i < polled.size(); ++i) {
          peer& p = *peers_[i - 2];
          const short events = polled[i].revents;
          if (events & (POLLIN | POLLHUP | POLLERR)) receive(p);
          if (events & POLLOUT) send_pending(p);
        }
      }
      serve_all();
      std::erase_if(peers_, [](const auto& p) { return p->gone; });
    }
  }

  int next_deadline_ms() const {
    bool any = false;
    store_clock::time_point soonest{};
    for (const auto& p : peers_)
      if (p->parked && (!any || p->deadline < soonest)) {
        soonest = p->deadline;
        any = true;
      }
    return any ? poll_milliseconds(soonest) : -1;
  }

  void accept_peers() {
    for (;;) {
      const int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;  // EAGAIN, or a connection that died while queued
      set_no_delay(fd);
      auto p = std::make_unique<peer>();
      p->fd = socket_fd(fd);
      peers_.push_back(std::move(p));
    }
  }

  void receive(peer& p) {
    for (;;) {
      // A frame whose length is known is read whole in as few calls as the
      // kernel allows (values of megabytes).
      std::size_t want = 1 << 16;
      const std::size_t pending = p.input.size() - p.input_used;
      if (pending >= frame_header_bytes) {
        const std::uint64_t frame =
            frame_header_bytes + frame_body_bytes(std::span(p.input).subspan(p.input_used));
        if (frame > pending && frame <= max_frame_bytes)
          want = std::max<std::size_t>(want, frame - pending);
      }
      const std::size_t old_size = p.input.size();
      try {
        p.input.resize(old_size + want);
      } catch (const std::exception&) {
        p.gone = true;
        return;
      }
      const ssize_t got = ::recv(p.fd.get(), p.input.data() + old_size, want, MSG_DONTWAIT);
      p.input.resize(old_size + static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
      if (got > 0) continue;
      if (got < 0 && errno == EINTR) continue;
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      p.gone = true;  // closed by the client, or broken
      return;
    }
  }

  void send_pending(peer& p) {
    while (p.output_sent < p.output.size()) {
      const ssize_t sent = ::send(p.fd.get(), p.output.data() + p.output_sent,
                                  p.output.size() - p.output_sent, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent > 0) {
        p.output_sent += static_cast<std::size_t>(sent);
        continue;
      }
      if (sent < 0 && errno == EINTR) continue;
      if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      p.gone = true;
      return;
    }
    p.output.clear();
    p.output_sent = 0;
  }

  void reply(peer& p, std::vector<std::byte> frame) {
    if (p.output_sent == p.output.size()) {
      p.output = std::move(frame);
      p.output_sent = 0;
    } else {
      p.output.insert(p.output.end(), frame.begin(), frame.end());
    }
    send_pending(p);
  }

  // Serves every complete request that is not behind a parked one, answers
  // parked requests whose keys arrived or whose time ran out, and repeats
  // while that unblocks more.
  void serve_all() {
    bool progress = true;
    while (progress) {
      progress = false;
      for (auto& p : peers_) {
        while (!p->gone && !p->parked && serve_one(*p)) progress = true;
        compact(*p);
      }
      const auto now = store_clock::now();
      for (auto& p : peers_)
        if (!p->gone && p->parked && (answer_parked(*p) || answer_timeout(*p, now)))
          progress = true;
    }
  }

  void compact(peer& p) {
    if (p.input_used == 0) return;
    p.input.erase(p.input.begin(), p.input.begin() + static_cast<std::ptrdiff_t>(p.input_used));
    p.input_used = 0;
  }

  // Serves the next request of `p` if it has arrived whole. A malformed one
  // ends the connection: the stream can no longer be trusted.
  bool serve_one(peer& p) {
    const std::size_t pending = p.input.size() - p.input_used;
    if (pending < frame_header_bytes) return false;
    const std::uint64_t body = frame_body_bytes(std::span(p.input).subspan(p.input_used));
    if (body == 0 || body > max_frame_bytes) {
      p.gone = true;
      return false;
    }
    if (pending - frame_header_bytes < body) return false;
    frame_reader request(std::span(p.input).subspan(p.input_used + frame_header_bytes, body));
    p.input_used += frame_header_bytes + body;
    try {
      handle(p, request);
    } catch (const std::exception&) {
      // Malformed (store_error) or too large to hold (bad_alloc).
      p.gone = true;
    }
    return true;
  }

  static std::chrono::milliseconds bounded(std::int64_t ms) {
    return std::chrono::milliseconds(std::clamp<std::int64_t>(ms, 0, max_store_timeout.count()));
  }

  void handle(peer& p, frame_reader& request) {
    const auto op = static_cast<store_op>(request.u8());
    switch (op) {
      case store_op::hello:
        if (request.u64() != hello_request_magic) throw store_error("not a store client");
        reply(p,
              frame_writer(store_status::ok).u64(hello_reply_magic).u32(protocol_version).finish());
        return;
      case store_op::set: {
        std::string key = request.text();
        values_.insert_or_assign(std::move(key), request.blob());
        reply(p, frame_writer(store_status::ok).finish());
        return;
      }
      case store_op::get:
      case store_op::wait: {
        const auto timeout = bounded(request.i64());
        if (op == store_op::get) {
          p.keys.assign(1, request.text());
        } else {
          p.keys = request.texts();
        }
        p.wants_value = op == store_op::get;
        p.deadline = store_clock::now() + timeout;
        p.parked = true;
        // Answered here when the keys exist; otherwise by serve_all later.
        if (!answer_parked(p)) answer_timeout(p, store_clock::now());
        return;
      }
      case store_op::try_get: {
        const auto found = values_.find(request.text());
        if (found == values_.end()) {
          reply(p, frame_writer(store_status::not_found).finish());
        } else {
          reply(p, frame_writer(store_status::value).blob(found->second).finish());
        }
        return;
      }
      case store_op::add: {
        std::string key = request.text();
        const std::int64_t delta = request.i64();
        reply(p, add(std::move(key), delta));
        return;
      }
      case store_op::check: {
        const auto keys = request.texts();
        const bool all = std::all_of(keys.begin(), keys.end(),
                                     [&](const std::string& k) { return values_.contains(k); });
        reply(p, frame_writer(store_status::boolean).u8(all ? 1 : 0).finish());
        return;
      }
      case store_op::erase: {
        const bool erased = values_.erase(request.text()) != 0;
        reply(p, frame_writer(store_status::boolean).u8(erased ? 1 : 0).finish());
        return;
      }
    }
    throw store_error("unknown request");
  }

  // Counters are kept as decimal text, so that get_string reads them and a
  // value set as "41" can be added to.
  std::vector<std::byte> add(std::string key, std::int64_t delta) {
    std::int64_t current = 0;
    const auto found = values_.find(key);
    if (found != values_.end()) {
      const char* first = reinterpret_cast<const char*>(found->second.data());
      const char* last = first + found->second.size();
      const auto [end, error] = std::from_chars(first, last, current);
      if (error != std::errc() || end != last || first == last)
        return frame_writer(store_status::failed)
            .text("the value of key '" + key + "' is not an integer")
            .finish();
    }
    std::int64_t updated;
    if (__builtin_add_overflow(current, delta, &updated))
      return frame_writer(store_status::failed)
          .text("adding " + std::to_string(delta) + " to key '" + key + "' overflows int64")
          .finish();
    char text[24];
    const auto written = std::to_chars(text, text + sizeof text, updated).ptr;
    const auto* first = reinterpret_cast<const std::byte*>(text);
    values_.insert_or_assign(std::move(key),
                             std::vector<std::byte>(first, first + (written - text)));
    return frame_writer(store_status::integer).i64(updated).finish();
  }

  // Answers a parked request whose keys all exist.
  bool answer_parked(peer& p) {
    for (const auto& key : p.keys)
      if (!values_.contains(key)) return false;
    p.parked = false;
    if (p.wants_value) {
      reply(p, frame_writer(store_status::value).blob(values_.find(p.keys[0])->second).finish());
    } else {
      reply(p, frame_writer(store_status::ok).finish());
    }
    p.keys.clear();
    return true;
  }

  // Answers a parked request whose time ran out, naming the missing keys.
  bool answer_timeout(peer& p, store_clock::time_point now) {
    if (now < p.deadline) return false;
    std::vector<const std::string*> missing;
    for (const auto& key : p.keys)
      if (!values_.contains(key)) missing.push_back(&key);
    frame_writer answer(store_status::timed_out);
    answer.u32(static_cast<std::uint32_t>(missing.size()));
    for (const auto* key : missing) answer.text(*key);
    p.parked = false;
    reply(p, answer.finish());
    p.keys.clear();
    return true;
  }

  socket_fd listener_;
  int port_ = 0;
  socket_fd wake_read_, wake_write_;
  std::unordered_map<std::string, std::vector<std::byte>> values_;
  std::vector<std::unique_ptr<peer>> peers_;
  std::thread thread_;
};

}  // namespace cupp::distributed::detail
