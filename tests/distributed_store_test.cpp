// The TCP store: every operation between a server and a second client in
// this process, then between processes (fork) the way a job bootstraps:
// rendezvous, barriers, concurrent counters, a server that dies while a
// client waits, a client that starts before its server.
#include <cupp/distributed/store.hpp>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cupp_test.hpp"

namespace {

using namespace std::chrono_literals;
using cupp::distributed::store_error;
using cupp::distributed::store_timeout;
using cupp::distributed::tcp_store;
using test_clock = std::chrono::steady_clock;

std::vector<std::byte> bytes_of(std::string_view text) {
  const auto* first = reinterpret_cast<const std::byte*>(text.data());
  return std::vector<std::byte>(first, first + text.size());
}

std::chrono::milliseconds since(test_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(test_clock::now() - start);
}

// Runs `work` in a forked child, which exits with its result (99 when it
// throws) without running any Boost.Test machinery or destructors of the
// parent's objects.
pid_t spawn(const std::function<int()>& work) {
  const pid_t pid = ::fork();
  BOOST_TEST_REQUIRE(pid >= 0, "fork failed");
  if (pid == 0) {
    int code = 99;
    try {
      code = work();
    } catch (...) {
    }
    ::_exit(code);
  }
  return pid;
}

// The child's exit code, or -1 if it had not ended within `limit` (it is
// then killed) or ended by a signal.
int exit_code_of(pid_t pid, std::chrono::milliseconds limit = 20s) {
  const auto start = test_clock::now();
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (since(start) > limit) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(5ms);
  }
}

// A port that nothing listens on at the moment.
int unused_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

std::vector<std::string> rank_keys(int n) {
  std::vector<std::string> keys;
  for (int r = 0; r < n; ++r) keys.push_back("rank/" + std::to_string(r));
  return keys;
}

// What every rank of a job does at start-up: publish its own key, wait for
// everyone's, read them all. 0 when every value is the expected one.
int rendezvous(tcp_store& store, int rank, int n) {
  store.set("rank/" + std::to_string(rank), "address of rank " + std::to_string(rank));
  store.wait(rank_keys(n));
  for (int r = 0; r < n; ++r)
    if (store.get_string("rank/" + std::to_string(r)) != "address of rank " + std::to_string(r))
      return 1;
  return 0;
}

// The message of the store_error `call` throws; a test failure when it
// throws a store_timeout instead (a lost server must not pass for a slow one)
// or nothing.
template <class F>
std::string lost_connection_message(F&& call) {
  try {
    call();
  } catch (const store_timeout& e) {
    BOOST_ERROR("a lost server reported as a timeout: " << e.what());
    return e.what();
  } catch (const store_error& e) {
    return e.what();
  }
  BOOST_ERROR("no store_error");
  return {};
}

constexpr int ranks = 4;

}  // namespace

BOOST_AUTO_TEST_SUITE(store_in_one_process)

BOOST_AUTO_TEST_CASE(operations_between_server_and_client) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  BOOST_TEST(server.port() > 0);
  BOOST_TEST(server.is_server());
  tcp_store client("localhost", server.port(), false, 10s);
  BOOST_TEST(!client.is_server());
  BOOST_TEST(client.timeout().count() == 10000);

  client.set("greeting", "hello");
  BOOST_TEST(server.get_string("greeting") == "hello");
  BOOST_TEST((server.get("greeting") == bytes_of("hello")));
  server.set("greeting", "replaced");
  BOOST_TEST(client.get_string("greeting") == "replaced");

  BOOST_TEST(!client.try_get("absent").has_value());
  BOOST_TEST((client.try_get("greeting").value() == bytes_of("replaced")));

  BOOST_TEST(client.add("counter", 5) == 5);
  BOOST_TEST(server.add("counter", -7) == -2);
  BOOST_TEST(client.add("counter", 0) == -2);
  BOOST_TEST(client.get_string("counter") == "-2");
  client.set("forty-one", "41");
  BOOST_TEST(server.add("forty-one", 1) == 42);
  BOOST_CHECK_THROW(client.add("greeting", 1), cupp::value_error);
  client.set("almost-max", std::to_string(INT64_MAX));
  BOOST_CHECK_THROW(client.add("almost-max", 1), cupp::value_error);

  const std::vector<std::string> both{"greeting", "counter"};
  const std::vector<std::string> one_missing{"greeting", "absent"};
  BOOST_TEST(client.check(both));
  BOOST_TEST(!client.check(one_missing));
  BOOST_TEST(client.check(std::vector<std::string>{}));
  client.wait(both);
  client.wait(both, 0ms);

  BOOST_TEST(client.erase("greeting"));
  BOOST_TEST(!client.erase("greeting"));
  BOOST_TEST(!server.try_get("greeting").has_value());
  BOOST_TEST(!server.check(both));
}

BOOST_AUTO_TEST_CASE(binary_empty_and_large_values) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  tcp_store client("127.0.0.1", server.port(), false, 10s);

  std::vector<std::byte> binary;
  for (int i = 0; i < 1000; ++i) binary.push_back(static_cast<std::byte>(i % 3 == 0 ? 0 : i));
  client.set("binary", binary);
  BOOST_TEST((server.get("binary") == binary));
  BOOST_TEST(server.get_string("binary").size() == binary.size());

  // Keys may hold any bytes too, zero included.
  const std::string odd_key("a\0b/\xff", 5);
  client.set(odd_key, "x");
  BOOST_TEST(server.get_string(odd_key) == "x");
  BOOST_TEST(!server.try_get(std::string("a")).has_value());

  client.set("empty", std::string_view());
  BOOST_TEST(server.get("empty").empty());
  BOOST_TEST(server.try_get("empty").has_value());

  std::vector<std::byte> large(6 << 20);
  std::mt19937 random(7);
  for (auto& b : large) b = static_cast<std::byte>(random());
  client.set("large", large);
  BOOST_TEST((server.get("large") == large));
  BOOST_TEST((client.try_get("large").value() == large));
}

BOOST_AUTO_TEST_CASE(many_keys) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  tcp_store client("127.0.0.1", server.port(), false, 10s);
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) keys.push_back("key/" + std::to_string(i));
  for (std::size_t i = 0; i < keys.size(); ++i)
    (i % 2 ? client : server).set(keys[i], std::to_string(i * i));
  BOOST_TEST(server.check(keys));
  client.wait(keys);
  for (std::size_t i = 0; i < keys.size(); i += 97)
    BOOST_TEST(client.get_string(keys[i]) == std::to_string(i * i));
}

BOOST_AUTO_TEST_CASE(a_get_that_runs_out_of_time) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  tcp_store client("127.0.0.1", server.port(), false, 300ms);

  auto start = test_clock::now();
  try {
    client.get("never-set");
    BOOST_FAIL("get of a key nobody sets returned");
  } catch (const store_timeout& e) {
    BOOST_TEST(std::string(e.what()).find("'never-set'") != std::string::npos, e.what());
  }
  BOOST_TEST(since(start) >= 250ms);
  BOOST_TEST(since(start) < 3s);

  // wait names only the keys that are still missing.
  client.set("present", "1");
  start = test_clock::now();
  try {
    client.wait(std::vector<std::string>{"present", "missing-a", "missing-b"}, 100ms);
    BOOST_FAIL("wait for missing keys returned");
  } catch (const store_timeout& e) {
    const std::string message = e.what();
    BOOST_TEST(message.find("'missing-a', 'missing-b'") != std::string::npos, message);
    BOOST_TEST(message.find("present") == std::string::npos, message);
  }
  BOOST_TEST(since(start) >= 80ms);
  BOOST_TEST(since(start) < 3s);

  // A timeout leaves the connection in step: the next replies are the right ones.
  BOOST_TEST(client.get_string("present") == "1");
  BOOST_TEST(client.add("after-timeout", 3) == 3);
}

BOOST_AUTO_TEST_CASE(a_waiting_get_is_answered_by_a_later_set) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  tcp_store client("127.0.0.1", server.port(), false, 10s);
  std::string seen;
  const auto start = test_clock::now();
  std::thread waiter([&] {
    try {
      seen = client.get_string("late");
    } catch (const std::exception& e) {
      seen = e.what();
    }
  });
  std::this_thread::sleep_for(150ms);
  server.set("late", "arrived");
  waiter.join();
  BOOST_TEST(seen == "arrived");
  BOOST_TEST(since(start) >= 140ms);
  BOOST_TEST(since(start) < 2s);
}

BOOST_AUTO_TEST_CASE(one_store_shared_by_threads) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int i = 0; i < 250; ++i) {
          server.add("shared", 1);
          server.set("thread/" + std::to_string(t), std::to_string(i));
        }
      } catch (...) {
        ++failures;
      }
    });
  for (auto& thread : threads) thread.join();
  BOOST_TEST(failures.load() == 0);
  BOOST_TEST(server.add("shared", 0) == 1000);
  BOOST_TEST(server.get_string("thread/3") == "249");
}

BOOST_AUTO_TEST_CASE(the_server_going_away_fails_clients_at_once) {
  auto server = std::make_unique<tcp_store>("127.0.0.1", 0, true, 10s);
  tcp_store client("127.0.0.1", server->port(), false, 10s);
  client.set("k", "v");
  server.reset();
  auto start = test_clock::now();
  BOOST_TEST(lost_connection_message([&] { client.get("k"); }).find("closed") != std::string::npos);
  BOOST_TEST(since(start) < 2s);
  // The connection stays failed.
  start = test_clock::now();
  const auto message = lost_connection_message([&] { client.set("k", "v"); });
  BOOST_TEST(message.find("127.0.0.1") != std::string::npos, message);
  BOOST_TEST(since(start) < 1s);
}

BOOST_AUTO_TEST_CASE(no_server_within_the_timeout) {
  const int port = unused_port();
  const auto start = test_clock::now();
  try {
    tcp_store client("127.0.0.1", port, false, 300ms);
    BOOST_FAIL("connected to a port nobody serves");
  } catch (const store_error& e) {
    BOOST_TEST(std::string(e.what()).find(std::to_string(port)) != std::string::npos, e.what());
  }
  BOOST_TEST(since(start) >= 250ms);
  BOOST_TEST(since(start) < 3s);
}

// A server named by the machine's name listens on every interface: reached
// through the name and through the loopback address alike.
BOOST_AUTO_TEST_CASE(a_server_named_by_the_machine_name) {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  addrinfo hints{};
  hints.ai_family = AF_INET;
  addrinfo* found = nullptr;
  if (::getaddrinfo(name, nullptr, &hints, &found) != 0) {
    BOOST_TEST_MESSAGE("skipped: this machine's name '" << name << "' does not resolve");
    return;
  }
  ::freeaddrinfo(found);
  tcp_store server(name, 0, true, 10s);
  tcp_store by_address("127.0.0.1", server.port(), false, 10s);
  by_address.set("k", "v");
  BOOST_TEST(server.get_string("k") == "v");
}

BOOST_AUTO_TEST_CASE(arguments) {
  BOOST_CHECK_THROW(tcp_store("127.0.0.1", 0, false, 1s), cupp::value_error);
  BOOST_CHECK_THROW(tcp_store("127.0.0.1", 70000, true, 1s), cupp::value_error);
  BOOST_CHECK_THROW(tcp_store("127.0.0.1", -1, true, 1s), cupp::value_error);
  BOOST_CHECK_THROW(tcp_store("no-such-host.invalid", 1234, false, 1s), store_error);
  tcp_store server("127.0.0.1", 0, true, 10s);
  BOOST_CHECK_THROW(tcp_store("127.0.0.1", server.port(), true, 1s), store_error);
  BOOST_CHECK_THROW(server.barrier("b", 0, 1s), cupp::value_error);
  server.barrier("alone", 1, 1s);
  server.barrier("alone", 1, 1s);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(store_between_processes)

BOOST_AUTO_TEST_CASE(four_processes_bootstrap) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  const int port = server.port();
  std::vector<pid_t> children;
  for (int rank = 1; rank < ranks; ++rank)
    children.push_back(spawn([port, rank] {
      tcp_store store("127.0.0.1", port, false, 10s);
      return rendezvous(store, rank, ranks);
    }));
  BOOST_TEST(rendezvous(server, 0, ranks) == 0);
  for (const pid_t child : children) BOOST_TEST(exit_code_of(child) == 0);
}

BOOST_AUTO_TEST_CASE(barriers_between_four_processes) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  const int port = server.port();
  // Each phase: publish a key, pass the barrier, then every rank's key of
  // that phase must be there. Rank r is slowed by r * 20 ms per phase, so
  // that a barrier that let anyone through early would be caught.
  const auto phases = [](tcp_store& store, int rank) {
    for (const char* phase : {"first", "second", "third"}) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20 * rank));
      store.set(std::string(phase) + "/" + std::to_string(rank), "here");
      // The same name twice, then another: names are reusable.
      store.barrier(phase[0] == 't' ? "other" : "same", ranks, 10s);
      std::vector<std::string> keys;
      for (int r = 0; r < ranks; ++r) keys.push_back(std::string(phase) + "/" + std::to_string(r));
      if (!store.check(keys)) return 1;
    }
    return 0;
  };
  std::vector<pid_t> children;
  for (int rank = 1; rank < ranks; ++rank)
    children.push_back(spawn([port, rank, &phases] {
      tcp_store store("127.0.0.1", port, false, 10s);
      return phases(store, rank);
    }));
  BOOST_TEST(phases(server, 0) == 0);
  for (const pid_t child : children) BOOST_TEST(exit_code_of(child) == 0);
}

BOOST_AUTO_TEST_CASE(a_barrier_that_not_everyone_reaches) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  const int port = server.port();
  const pid_t child = spawn([port] {
    tcp_store store("127.0.0.1", port, false, 10s);
    store.set("child arriving", "1");
    store.barrier("short", ranks, 10s);
    return 0;
  });
  const auto start = test_clock::now();
  // Two of four arrive: the parent gives up after its timeout and says so.
  try {
    server.get("child arriving");
    std::this_thread::sleep_for(200ms);
    server.barrier("short", ranks, 300ms);
    BOOST_FAIL("a barrier of 4 passed with 2");
  } catch (const store_timeout& e) {
    BOOST_TEST(std::string(e.what()).find("2 of 4") != std::string::npos, e.what());
  }
  BOOST_TEST(since(start) < 3s);
  ::kill(child, SIGKILL);
  BOOST_TEST(exit_code_of(child) == -1);
}

BOOST_AUTO_TEST_CASE(counters_added_from_four_processes) {
  tcp_store server("127.0.0.1", 0, true, 10s);
  const int port = server.port();
  const auto count = [](tcp_store& store) {
    // Everyone starts together, so that the adds really interleave.
    store.barrier("start counting", ranks, 10s);
    for (int i = 0; i < 1000; ++i) store.add("counter", 1);
    store.barrier("done counting", ranks, 10s);
    return store.add("counter", 0) == 4000 ? 0 : 1;
  };
  std::vector<pid_t> children;
  for (int rank = 1; rank < ranks; ++rank)
    children.push_back(spawn([port, &count] {
      tcp_store store("127.0.0.1", port, false, 10s);
      return count(store);
    }));
  BOOST_TEST(count(server) == 0);
  for (const pid_t child : children) BOOST_TEST(exit_code_of(child) == 0);
  BOOST_TEST(server.get_string("counter") == "4000");
}

BOOST_AUTO_TEST_CASE(the_server_process_exits_while_a_client_waits) {
  int ends[2];
  BOOST_TEST_REQUIRE(::pipe(ends) == 0);
  const pid_t serving = spawn([&ends] {
    ::close(ends[0]);
    tcp_store store("127.0.0.1", 0, true, 10s);
    const int port = store.port();
    if (::write(ends[1], &port, sizeof port) != sizeof port) return 1;
    store.set("up", "1");
    std::this_thread::sleep_for(300ms);
    return 0;  // the process ends without a word to its clients
  });
  ::close(ends[1]);
  int port = 0;
  BOOST_TEST_REQUIRE(::read(ends[0], &port, sizeof port) == static_cast<ssize_t>(sizeof port));
  ::close(ends[0]);
  tcp_store client("127.0.0.1", port, false, 30s);
  BOOST_TEST(client.get_string("up") == "1");
  const auto start = test_clock::now();
  BOOST_TEST_MESSAGE(lost_connection_message([&] { client.get("never-set"); }));
  BOOST_TEST(since(start) < 5s);
  BOOST_TEST(exit_code_of(serving) == 0);
}

BOOST_AUTO_TEST_CASE(a_client_that_starts_before_its_server) {
  const int port = unused_port();
  const pid_t early = spawn([port] {
    tcp_store store("127.0.0.1", port, false, 10s);
    store.set("early", "connected");
    return store.get_string("reply") == "welcome" ? 0 : 1;
  });
  std::this_thread::sleep_for(400ms);
  tcp_store server("127.0.0.1", port, true, 10s);
  BOOST_TEST(server.get_string("early") == "connected");
  server.set("reply", "welcome");
  BOOST_TEST(exit_code_of(early) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
