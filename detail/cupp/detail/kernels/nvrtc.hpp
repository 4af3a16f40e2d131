// NVRTC, wrapped once: a source string compiled for one GPU architecture
// into a cubin (or PTX, where the device is newer than NVRTC knows), with the
// lowered names of its name expressions; every failure a cupp exception, a
// failed compile a compile_error with the log and the lines it points at.
// Sources that cannot reach what NVRTC's --minimal leaves out compile with
// it (a sixth less compile time, the same cubin).
#pragma once

#include <nvrtc.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <cupp/errors.hpp>

namespace cupp::detail::kernels {

// The output of one compilation.
struct compiled_code {
  std::string image;  // a cubin, or PTX when `ptx`
  bool ptx = false;
  std::vector<std::pair<std::string, std::string>> lowered;  // name expression, mangled name
  std::string log;
};

inline void check_nvrtc(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS)
    throw std::runtime_error(std::string("cupp: NVRTC ") + what +
                             " failed: " + nvrtcGetErrorString(r));
}

// NVRTC's version as major * 1000 + minor * 10 (the runtime's convention).
inline int nvrtc_version() {
  int major = 0, minor = 0;
  check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return major * 1000 + minor * 10;
}

// The newest real architecture NVRTC compiles for.
inline int nvrtc_newest_arch() {
  static const int newest = [] {
    int n = 0;
    check_nvrtc(nvrtcGetNumSupportedArchs(&n), "nvrtcGetNumSupportedArchs");
    std::vector<int> archs(static_cast<std::size_t>(n));
    check_nvrtc(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
    return archs.empty() ? 0 : *std::max_element(archs.begin(), archs.end());
  }();
  return newest;
}

// Whether a compile may add NVRTC's --minimal, which leaves out of the
// built-in header what a small kernel rarely names: texture and surface
// functions and types, the device runtime's functions (cudaMalloc,
// cudaGetLastError, ...), kernel launches from device code, and the
// runtime's types and macros (cudaError_t, cudaStream_t, ...). A kernel
// that names none of them gets the same cubin, and its compile skips a
// sixth of NVRTC's time (the small kernel of bench_kernels: 28.9 -> 24.1 ms
// of CPU time with NVRTC 13.0 on the 2-core development machine). Whatever
// a source or an option could bring in unseen keeps the full header: any
// "include" (an #include, a pre-included file, include paths), any "cuda"
// (any case), "tex" or "surf" in the source or the options, a device-side
// launch ("<<<"), separate compilation. NVRTC before 12.4 has no --minimal; CUPP_NVRTC_MINIMAL=0
// turns it off.
inline bool minimal_header_applies(std::string_view source, const std::vector<std::string>& options,
                                   int nvrtc_version_number) {
  if (nvrtc_version_number < 12040) return false;
  if (const char* e = std::getenv("CUPP_NVRTC_MINIMAL"); e && std::string_view(e) == "0")
    return false;
  const auto mentions = [](std::string_view text, std::initializer_list<std::string_view> words) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string_view w : words)
      if (lower.find(w) != std::string::npos) return true;
    return false;
  };
  if (mentions(source, {"cuda", "tex", "surf", "include", "<<<"})) return false;
  for (const std::string& o : options)
    if (mentions(o, {"cuda", "tex", "surf", "include", "-dc", "rdc", "relocatable", "device-c",
                     "minimal"}))
      return false;
  return true;
}

// The source lines that a log's diagnostics ("name(LINE): error: ...") point
// at, each with its number, under the log.
inline std::string annotate_log(const std::string& log, const std::string& source,
                                const std::string& name) {
  std::vector<std::string> lines;
  {
    std::istringstream in(source);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  std::vector<std::size_t> cited;
  const std::string marker = name + "(";
  for (std::size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    std::size_t p = at + marker.size(), line = 0;
    bool digits = false;
    while (p < log.size() && log[p] >= '0' && log[p] <= '9') {
      line = line * 10 + static_cast<std::size_t>(log[p++] - '0');
      digits = true;
    }
    if (digits && p < log.size() && log[p] == ')' && line >= 1 && line <= lines.size() &&
        std::find(cited.begin(), cited.end(), line) == cited.end())
      cited.push_back(line);
  }
  std::ostringstream out;
  out << log;
  if (!cited.empty()) {
    out << (log.empty() || log.back() == '\n' ? "" : "\n") << "in " << name << ":\n";
    for (const std::size_t line : cited) out << "  " << line << " | " << lines[line - 1] << '\n';
  }
  return out.str();
}

// One compile of `source` as nvrtc_compile describes, with or without
// --minimal.
inline compiled_code nvrtc_compile_as(const std::string& source, const std::string& name,
                                      const std::vector<std::string>& options,
                                      const std::vector<std::string>& name_expressions, int arch,
                                      bool minimal) {
  nvrtcProgram prog = nullptr;
  check_nvrtc(nvrtcCreateProgram(&prog, source.c_str(), name.c_str(), 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  const std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard(
      &prog, [](nvrtcProgram* p) { nvrtcDestroyProgram(p); });
  for (const std::string& e : name_expressions)
    check_nvrtc(nvrtcAddNameExpression(prog, e.c_str()), "nvrtcAddNameExpression");

  compiled_code out;
  const int newest = nvrtc_newest_arch();
  out.ptx = arch > newest;
  std::vector<std::string> all = options;
  if (minimal) all.push_back("--minimal");
  all.push_back(out.ptx ? "--gpu-architecture=compute_" + std::to_string(newest)
                        : "--gpu-architecture=sm_" + std::to_string(arch));
  std::vector<const char*> argv;
  for (const std::string& o : all) argv.push_back(o.c_str());
  const nvrtcResult status = nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());

  std::size_t log_size = 0;
  check_nvrtc(nvrtcGetProgramLogSize(prog, &log_size), "nvrtcGetProgramLogSize");
  out.log.resize(log_size);
  if (log_size > 0) check_nvrtc(nvrtcGetProgramLog(prog, out.log.data()), "nvrtcGetProgramLog");
  while (!out.log.empty() && out.log.back() == '\0') out.log.pop_back();
  if (status == NVRTC_ERROR_COMPILATION || status == NVRTC_ERROR_INVALID_OPTION)
    throw compile_error("cupp: the kernel source '" + name + "' did not compile:\n" +
                            annotate_log(out.log, source, name),
                        out.log);
  check_nvrtc(status, "nvrtcCompileProgram");

  std::size_t size = 0;
  if (out.ptx) {
    check_nvrtc(nvrtcGetPTXSize(prog, &size), "nvrtcGetPTXSize");
    out.image.resize(size);
    check_nvrtc(nvrtcGetPTX(prog, out.image.data()), "nvrtcGetPTX");
  } else {
    check_nvrtc(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
    out.image.resize(size);
    check_nvrtc(nvrtcGetCUBIN(prog, out.image.data()), "nvrtcGetCUBIN");
  }
  for (const std::string& e : name_expressions) {
    const char* lowered = nullptr;
    check_nvrtc(nvrtcGetLoweredName(prog, e.c_str(), &lowered), "nvrtcGetLoweredName");
    out.lowered.emplace_back(e, lowered);
  }
  return out;
}

// Compiles `source` (program name `name`, which the log's diagnostics
// carry) for compute capability `arch` (e.g. 90) with the user's options.
// The architecture option is cupp's: a cubin for sm_<arch>, or PTX for the
// newest architecture NVRTC has where the device is newer still (the
// driver compiles it); so is --minimal, where minimal_header_applies. A
// source that fails under --minimal is compiled again without it, so that
// what the test above misses costs time, never a compile.
inline compiled_code nvrtc_compile(const std::string& source, const std::string& name,
                                   const std::vector<std::string>& options,
                                   const std::vector<std::string>& name_expressions, int arch) {
  if (minimal_header_applies(source, options, nvrtc_version())) {
    try {
      return nvrtc_compile_as(source, name, options, name_expressions, arch, true);
    } catch (const compile_error&) {
    }
  }
  return nvrtc_compile_as(source, name, options, name_expressions, arch, false);
}

}  // namespace cupp::detail::kernels
