// CUDA IPC between two processes: this test binary starts itself again as
// the other process (the ipc_child suite, which does nothing unless
// CUPP_IPC_CHILD tells it what to do). A strided view and an event go to
// the child, which waits on the event and doubles the view in place; the
// parent sees the doubled elements and nothing else changed. A handle
// whose process has exited cannot be opened; a handle of another dtype is
// refused.
#include <cupp/ipc.hpp>
#include <cupp/cupp.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cupp_test.hpp"

extern char** environ;

namespace {

template <class H>
std::string to_hex(const H& h) {
  const auto* p = reinterpret_cast<const unsigned char*>(&h);
  std::string s;
  for (std::size_t i = 0; i < sizeof(H); ++i) {
    char b[3];
    std::snprintf(b, sizeof b, "%02x", p[i]);
    s += b;
  }
  return s;
}
template <class H>
H from_hex(const std::string& s) {
  H h{};
  auto* p = reinterpret_cast<unsigned char*>(&h);
  for (std::size_t i = 0; i < sizeof(H) && 2 * i + 1 < s.size(); ++i)
    p[i] = static_cast<unsigned char>(std::stoi(s.substr(2 * i, 2), nullptr, 16));
  return h;
}

// Runs this binary's ipc_child suite with CUPP_IPC_CHILD=`task`; returns
// its exit status and what it printed.
int run_child(const std::string& task, std::string* out = nullptr) {
  int pipefd[2];
  BOOST_TEST_REQUIRE(::pipe(pipefd) == 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&fa, pipefd[0]);
  std::vector<std::string> env_store{"CUPP_IPC_CHILD=" + task};
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "CUPP_IPC_CHILD=", 15) != 0) env_store.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string self = "/proc/self/exe", run = "--run_test=ipc_child", level = "--log_level=error";
  char* argv[] = {self.data(), run.data(), level.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&fa);
  ::close(pipefd[1]);
  BOOST_TEST_REQUIRE(rc == 0);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipefd[0], buf, sizeof buf)) > 0;) text.append(buf, n);
  ::close(pipefd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (out) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string child_task() {
  const char* t = std::getenv("CUPP_IPC_CHILD");
  return t ? t : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ipc)

BOOST_AUTO_TEST_CASE(two_processes_share_a_view_and_an_event) {
  cupp::ndarray<float> base = cupp::arange<float>(2000);
  const auto view = base(cupp::slice(0, 2000, 2));  // every other element
  cupp::cuda::Event ready(false, true, true);
  ready.record();
  const std::string task = "double:" + to_hex(cupp::cuda::ipc_handle(view)) + ":" +
                           to_hex(cupp::cuda::ipc_handle(ready));
  BOOST_TEST(run_child(task) == 0);
  const auto v = base.to_vector();
  int bad = 0;
  for (int i = 0; i < 2000; ++i) bad += v[i] != (i % 2 ? i : 2.0f * i);
  BOOST_TEST(bad == 0);
}

BOOST_AUTO_TEST_CASE(handles_of_exited_processes_and_wrong_dtypes) {
  std::string printed;
  BOOST_TEST_REQUIRE(run_child("export", &printed) == 0);
  const auto at = printed.find("handle=");
  BOOST_TEST_REQUIRE(at != std::string::npos);
  const auto h = from_hex<cupp::cuda::ipc_array_handle>(
      printed.substr(at + 7, 2 * sizeof(cupp::cuda::ipc_array_handle)));
  BOOST_TEST(h.ndim == 1);
  BOOST_CHECK_THROW(cupp::cuda::open_ipc_array<std::int32_t>(h), cupp::cuda::cuda_error);
  BOOST_CHECK_THROW(cupp::cuda::open_ipc_array<double>(h), cupp::type_error);
  // An empty array travels without memory.
  const auto e = cupp::cuda::open_ipc_array<int>(cupp::cuda::ipc_handle(cupp::ndarray<int>()));
  BOOST_TEST(e.size() == 0);
}

BOOST_AUTO_TEST_SUITE_END()

// The other process: does what CUPP_IPC_CHILD says, nothing without it.
BOOST_AUTO_TEST_SUITE(ipc_child)

BOOST_AUTO_TEST_CASE(child) {
  const std::string task = child_task();
  if (task.rfind("double:", 0) == 0) {
    const auto colon = task.find(':', 7);
    const auto h = from_hex<cupp::cuda::ipc_array_handle>(task.substr(7, colon - 7));
    const auto eh = from_hex<cudaIpcEventHandle_t>(task.substr(colon + 1));
    cupp::ndarray<float> x = cupp::cuda::open_ipc_array<float>(h);
    cupp::cuda::get_current_stream().wait_event(cupp::cuda::open_ipc_event(eh));
    BOOST_TEST((x.shape() == cupp::shape_t{1000}));
    BOOST_TEST(x.strides()[0] == 8);
    const auto before = x.to_vector();
    int bad = 0;
    for (int i = 0; i < 1000; ++i) bad += before[i] != 2.0f * i;
    BOOST_TEST(bad == 0);
    x(cupp::ellipsis) = x * 2.0f;
    cupp::cuda::Device().synchronize();
  } else if (task == "export") {
    const cupp::ndarray<std::int32_t> y = cupp::arange<std::int32_t>(10) * 3;
    cupp::cuda::Device().synchronize();
    std::printf("handle=%s\n", to_hex(cupp::cuda::ipc_handle(y)).c_str());
    std::fflush(stdout);
  }
  BOOST_TEST(true);
}

BOOST_AUTO_TEST_SUITE_END()
