// .npy files: loading what NumPy writes, saving what NumPy would write (byte
// for byte), and rejecting broken files with NumPy's exception types.
// Fixtures: tests/generate_npy_fixtures.py.
#include <cupp/npy.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#if defined(__linux__)
#include <csignal>
#include <sys/resource.h>
#endif

#include "cupp_test.hpp"

namespace fs = std::filesystem;
namespace hana = boost::hana;
namespace npyd = cupp::detail::npy;

namespace {

fs::path fixture_path(const std::string& relative) {
  return cupp_test::fixture("npy/" + relative);
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  BOOST_TEST_REQUIRE(in.good(), "cannot read " << p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string hex(const void* data, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s.empty() ? "-" : s;
}

// The elements in C order as bytes (to_vector would give vector<bool>).
template <class T>
std::string c_order_hex(const cupp::host::ndarray<T>& a) {
  const auto c = a.copy(cupp::order::C);
  return hex(c.data(), static_cast<std::size_t>(c.nbytes()));
}

// A scratch directory for the files the tests write, removed at exit.
struct scratch {
  fs::path dir;
  scratch() {
    const auto tag = std::chrono::steady_clock::now().time_since_epoch().count();
    dir = fs::temp_directory_path() / ("cupp_npy_test_" + std::to_string(tag));
    fs::create_directories(dir);
  }
  ~scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};
const fs::path& tmp_dir() {
  static scratch s;
  return s.dir;
}

// Entries of a directory, sorted, for checking that nothing was left behind.
std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// good/NAME.txt: what NumPy says the file holds.
struct expectation {
  std::string name, dtype, data, resave;
  cupp::shape_t shape;
  bool fortran_order = false, f_layout = false, big_endian = false;
  int major = 0, minor = 0;
  std::size_t data_offset = 0;
};

expectation expect(const std::string& name) {
  expectation e;
  e.name = name;
  for (const auto& line : cupp_test::fixture_lines("npy/good/" + name + ".txt")) {
    std::istringstream in(line);
    std::string key;
    in >> key;
    if (key == "dtype") in >> e.dtype;
    if (key == "shape")
      for (cupp::index_t d; in >> d;) e.shape.push_back(d);
    if (key == "fortran_order") in >> e.fortran_order;
    if (key == "f_layout") in >> e.f_layout;
    if (key == "version") in >> e.major >> e.minor;
    if (key == "big_endian") in >> e.big_endian;
    if (key == "data_offset") in >> e.data_offset;
    if (key == "data") in >> e.data;
    if (key == "resave") in >> e.resave;
  }
  return e;
}

std::vector<expectation> good_files() {
  std::vector<expectation> all;
  for (const auto& entry : fs::directory_iterator(fixture_path("good")))
    if (entry.path().extension() == ".npy") all.push_back(expect(entry.path().stem().string()));
  std::sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return all;
}

// Whatever load of the file's own dtype throws (or nothing).
void load_as_stored(const fs::path& path) {
  const cupp::npy_header h = cupp::read_npy_header(path);
  cupp_test::with_dtype(h.dtype.name, [&](auto t) {
    using T = typename decltype(t)::type;
    (void)cupp::host::load<T>(path);
  });
}
void load_as_stored(std::istream& is) {
  const auto start = is.tellg();
  const cupp::npy_header h = cupp::read_npy_header(is);
  is.seekg(start);
  cupp_test::with_dtype(h.dtype.name, [&](auto t) {
    using T = typename decltype(t)::type;
    (void)cupp::host::load<T>(is);
  });
}

template <class Fn>
std::string error_kind(Fn&& fn, std::string& message) {
  try {
    fn();
  } catch (const cupp::value_error& e) {
    message = e.what();
    return "value_error";
  } catch (const cupp::type_error& e) {
    message = e.what();
    return "type_error";
  } catch (const cupp::io_error& e) {
    message = e.what();
    return "io_error";
  } catch (const std::exception& e) {
    message = e.what();
    return "other exception";
  }
  return "no exception";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(npy)

BOOST_AUTO_TEST_CASE(loads_numpy_files) {
  const auto files = good_files();
  BOOST_TEST_REQUIRE(files.size() >= 40u);
  for (const auto& e : files) {
    BOOST_TEST_CONTEXT(e.name) {
      cupp_test::with_dtype(e.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        const auto a = cupp::host::load<T>(fixture_path("good/" + e.name + ".npy"));
        BOOST_TEST(a.shape() == e.shape, cupp::to_string(a.shape())
                                             << " vs " << cupp::to_string(e.shape));
        if (e.fortran_order) BOOST_TEST(a.is_f_contiguous());
        if (!e.fortran_order) BOOST_TEST(a.is_c_contiguous());
        BOOST_TEST((a.is_f_contiguous() && !a.is_c_contiguous()) == e.f_layout);
        BOOST_TEST(a.flags().owndata);
        BOOST_TEST(c_order_hex(a) == e.data);
      });
    }
  }
}

BOOST_AUTO_TEST_CASE(headers_match_numpy) {
  for (const auto& e : good_files()) {
    BOOST_TEST_CONTEXT(e.name) {
      const auto h = cupp::read_npy_header(fixture_path("good/" + e.name + ".npy"));
      BOOST_TEST(h.dtype.name == e.dtype);
      BOOST_TEST(h.shape == e.shape);
      BOOST_TEST(h.fortran_order == e.fortran_order);
      BOOST_TEST(h.major == e.major);
      BOOST_TEST(h.minor == e.minor);
      BOOST_TEST(h.data_offset == e.data_offset);
      BOOST_TEST(h.big_endian == e.big_endian);
    }
  }
  const auto bf = cupp::read_npy_header(fixture_path("good/dtype_bfloat16.npy"));
  BOOST_TEST(bf.descr == "<V2");
  BOOST_TEST(cupp::read_npy_header(fixture_path("good/hdr_char_code.npy")).descr == "f");
}

// save(load(f)) must give the bytes np.save writes for the same array,
// whatever version, byte order or header spelling f had.
BOOST_AUTO_TEST_CASE(resave_matches_numpy_bytes) {
  for (const auto& e : good_files()) {
    BOOST_TEST_CONTEXT(e.name) {
      cupp_test::with_dtype(e.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        const auto a = cupp::host::load<T>(fixture_path("good/" + e.name + ".npy"));
        const fs::path out = tmp_dir() / (e.name + ".npy");
        cupp::save(out, a);
        const std::string want = file_bytes(fixture_path(e.resave));
        BOOST_TEST(file_bytes(out) == want);
        std::ostringstream os;
        cupp::save(os, a);
        BOOST_TEST(os.str() == want);
      });
    }
  }
}

// Views of all layouts: F-contiguous ones are written with fortran_order
// True, everything else in C order, as np.save does.
BOOST_AUTO_TEST_CASE(views_save_like_numpy) {
  int seen = 0;
  for (const auto& line : cupp_test::fixture_lines("npy/ref/views.txt")) {
    std::istringstream in(line);
    std::string name, base;
    cupp::index_t offset = 0;
    int ndim = 0;
    in >> name >> base >> offset >> ndim;
    cupp::shape_t shape, strides;
    for (int i = 0; i < ndim; ++i) shape.push_back(*std::istream_iterator<cupp::index_t>(in));
    for (int i = 0; i < ndim; ++i) strides.push_back(*std::istream_iterator<cupp::index_t>(in));
    BOOST_TEST_CONTEXT(name) {
      const auto h = cupp::read_npy_header(fixture_path("good/" + base + ".npy"));
      cupp_test::with_dtype(h.dtype.name, [&](auto t) {
        using T = typename decltype(t)::type;
        const auto b = cupp::host::load<T>(fixture_path("good/" + base + ".npy"));
        auto* first = reinterpret_cast<T*>(reinterpret_cast<char*>(b.data()) + offset);
        const auto view = cupp::host::ndarray<T>::from_pointer(first, shape, strides, b.memory());
        const fs::path out = tmp_dir() / (name + ".npy");
        cupp::save(out, view);
        BOOST_TEST(file_bytes(out) == file_bytes(fixture_path("ref/" + name + ".npy")));
        // Loading it back gives the view's elements, in the saved layout.
        const auto back = cupp::host::load<T>(out);
        BOOST_TEST(c_order_hex(back) == c_order_hex(view));
        BOOST_TEST(back.shape() == view.shape());
      });
      ++seen;
    }
  }
  BOOST_TEST(seen >= 10);
}

BOOST_AUTO_TEST_CASE(broken_files_throw_numpy_errors) {
  int seen = 0;
  for (const auto& line : cupp_test::fixture_lines("npy/bad/expected.txt")) {
    std::istringstream in(line);
    std::string name, kind, piece;
    in >> name >> kind;
    std::getline(in >> std::ws, piece);
    const fs::path path = fixture_path("bad/" + name + ".npy");
    BOOST_TEST_CONTEXT(name) {
      std::string message;
      BOOST_TEST(error_kind([&] { load_as_stored(path); }, message) == kind);
      BOOST_TEST(message.find(piece) != std::string::npos, "message: " << message);
      BOOST_TEST(message.find(path.string()) != std::string::npos, "message: " << message);
      // The same file through a stream fails the same way.
      std::istringstream is(file_bytes(path));
      std::string stream_message;
      BOOST_TEST(error_kind([&] { load_as_stored(is); }, stream_message) == kind);
      BOOST_TEST(stream_message.find(piece) != std::string::npos, "message: " << stream_message);
      ++seen;
    }
  }
  BOOST_TEST(seen >= 30);
}

BOOST_AUTO_TEST_CASE(numpy_messages) {
  std::string m;
  error_kind([&] { load_as_stored(fixture_path("bad/magic_wrong.npy")); }, m);
  BOOST_TEST(
      m.starts_with(R"(the magic string is not correct; expected b'\x93NUMPY', got b'\x93NUMPX')"));
  error_kind([&] { load_as_stored(fixture_path("bad/version_4_0.npy")); }, m);
  BOOST_TEST(m.starts_with("we only support format version (1,0), (2,0), and (3,0), not (4, 0)"));
  error_kind([&] { load_as_stored(fixture_path("bad/data_truncated.npy")); }, m);
  BOOST_TEST(m.starts_with("EOF: reading array data, expected 12 bytes got 7"));
  error_kind([&] { load_as_stored(fixture_path("bad/header_truncated.npy")); }, m);
  BOOST_TEST(m.starts_with("EOF: reading array header, expected 118 bytes got 40"));
  error_kind([&] { load_as_stored(fixture_path("bad/unparsable_garbage.npy")); }, m);
  BOOST_TEST(m.starts_with(R"(Cannot parse header: "{'descr': <f4, 'fortran_order': False, )"));
}

BOOST_AUTO_TEST_CASE(wrong_type_is_a_type_error) {
  const fs::path f64 = fixture_path("good/dtype_float64.npy");
  std::string m;
  BOOST_TEST(error_kind([&] { (void)cupp::host::load<float>(f64); }, m) == "type_error");
  BOOST_TEST(m.find("float64") != std::string::npos, m);
  BOOST_TEST(m.find("float32") != std::string::npos, m);
  BOOST_TEST(m.find("load<double>") != std::string::npos, m);
  BOOST_TEST(m.find(f64.string()) != std::string::npos, m);

  // bfloat16 is read from '<V2' only when asked for, and never as uint16.
  const fs::path bf = fixture_path("good/dtype_bfloat16.npy");
  BOOST_TEST(error_kind([&] { (void)cupp::host::load<std::uint16_t>(bf); }, m) == "type_error");
  BOOST_TEST(error_kind([&] { (void)cupp::host::load<__half>(bf); }, m) == "type_error");
  BOOST_TEST(
      error_kind(
          [&] { (void)cupp::host::load<__nv_bfloat16>(fixture_path("good/dtype_uint16.npy")); },
          m) == "type_error");

  // Every dtype rejects every other one.
  int checked = 0;
  hana::for_each(cupp_test::all_dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    for (const auto& e : good_files()) {
      if (e.dtype == cupp::dtype_of<T>().name) continue;
      std::string msg;
      BOOST_TEST(
          error_kind([&] { (void)cupp::host::load<T>(fixture_path("good/" + e.name + ".npy")); },
                     msg) == "type_error",
          e.name << " as " << cupp::dtype_of<T>().name);
      ++checked;
    }
  });
  BOOST_TEST(checked > 500);
}

BOOST_AUTO_TEST_CASE(os_errors) {
  std::string m;
  const fs::path missing = tmp_dir() / "does_not_exist.npy";
  BOOST_TEST(error_kind([&] { (void)cupp::host::load<float>(missing); }, m) == "io_error");
  BOOST_TEST(m.find("No such file or directory") != std::string::npos, m);
  BOOST_TEST(m.find(missing.string()) != std::string::npos, m);
  BOOST_TEST(error_kind([&] { (void)cupp::read_npy_header(missing); }, m) == "io_error");

  BOOST_TEST(error_kind([&] { (void)cupp::host::load<float>(tmp_dir()); }, m) == "io_error");
  BOOST_TEST(m.find("Is a directory") != std::string::npos, m);

  const auto a = cupp::host::array<float>({1, 2, 3});
  // Saving to a directory: Python's open() error, "[Errno 21] Is a
  // directory: 'path'" (not the rename's EBUSY or EISDIR).
  for (const fs::path& dir : {tmp_dir(), fs::path("."), tmp_dir() / "no_such_dir/"}) {
    BOOST_TEST(error_kind([&] { cupp::save(dir, a); }, m) == "io_error");
    BOOST_TEST(m == "[Errno 21] Is a directory: '" + dir.string() + "'");
  }
  BOOST_TEST(!fs::exists(tmp_dir() / "no_such_dir"));
  const fs::path no_dir = tmp_dir() / "no_such_dir" / "x.npy";
  BOOST_TEST(error_kind([&] { cupp::save(no_dir, a); }, m) == "io_error");
  BOOST_TEST(m.find(no_dir.string()) != std::string::npos, m);
  BOOST_TEST(!fs::exists(no_dir.parent_path()));
}

// A save that fails leaves neither a partial target nor a temporary file.
BOOST_AUTO_TEST_CASE(failed_save_leaves_nothing_behind) {
  const fs::path dir = tmp_dir() / "failed_save";
  fs::create_directories(dir / "target.npy" / "inside");
  const auto before = listing(dir);
  const auto a = cupp::host::array<float>({1, 2, 3});
  std::string m;
  // Renaming a file over a directory fails after the data is written.
  BOOST_TEST(error_kind([&] { cupp::save(dir / "target.npy", a); }, m) == "io_error");
  BOOST_TEST(listing(dir) == before, boost::test_tools::per_element());
  BOOST_TEST(fs::is_directory(dir / "target.npy" / "inside"));

  // A stream that cannot be written to.
  std::ostringstream bad;
  bad.setstate(std::ios::badbit);
  BOOST_TEST(error_kind([&] { cupp::save(bad, a); }, m) == "io_error");
}

#if defined(__linux__)
// A write that fails half way (file size limit) keeps the old file intact.
BOOST_AUTO_TEST_CASE(failed_write_keeps_old_file) {
  const fs::path dir = tmp_dir() / "failed_write";
  fs::create_directories(dir);
  const fs::path target = dir / "x.npy";
  cupp::save(target, cupp::host::array<float>({1, 2, 3}));
  const std::string old_bytes = file_bytes(target);

  rlimit old_limit{};
  BOOST_TEST_REQUIRE(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old_limit;
  small.rlim_cur = 4096;
  BOOST_TEST_REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string m;
  const auto big = cupp::host::zeros<double>({100000}).eval();
  const std::string kind = error_kind([&] { cupp::save(target, big); }, m);
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);

  BOOST_TEST(kind == "io_error");
  BOOST_TEST(m.find("File too large") != std::string::npos, m);
  BOOST_TEST(file_bytes(target) == old_bytes);
  BOOST_TEST(listing(dir) == std::vector<std::string>{"x.npy"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(save_replaces_files_like_a_write) {
  const fs::path dir = tmp_dir() / "symlink";
  fs::create_directories(dir);
  cupp::save(dir / "real.npy", cupp::host::array<int>({1}));
  fs::create_symlink("real.npy", dir / "link.npy");
  cupp::save(dir / "link.npy", cupp::host::array<int>({7, 8}));
  BOOST_TEST(fs::is_symlink(dir / "link.npy"));
  BOOST_TEST(cupp::host::load<int>(dir / "real.npy").shape() == cupp::shape_t{2});
  // Replacing a file keeps its permissions.
  fs::permissions(dir / "real.npy", fs::perms::owner_read | fs::perms::owner_write);
  cupp::save(dir / "real.npy", cupp::host::array<int>({9}));
  const auto perms = fs::status(dir / "real.npy").permissions() & fs::perms::all;
  BOOST_TEST((perms == (fs::perms::owner_read | fs::perms::owner_write)));
  BOOST_TEST(listing(dir) == (std::vector<std::string>{"link.npy", "real.npy"}),
             boost::test_tools::per_element());
}
#endif

// Arrays saved one after another to a stream load back in turn.
BOOST_AUTO_TEST_CASE(stream_sequence) {
  std::stringstream s;
  const auto a = cupp::host::array<float>({{1, 2, 3}, {4, 5, 6}});
  const auto b = cupp::host::array<std::int64_t>({-1, 0, 1});
  cupp::save(s, a);
  cupp::save(s, b);
  cupp::save(s, cupp::host::zeros<bool>({0}).eval());
  const auto a2 = cupp::host::load<float>(s);
  const auto b2 = cupp::host::load<std::int64_t>(s);
  const auto c2 = cupp::host::load<bool>(s);
  BOOST_TEST(c_order_hex(a2) == c_order_hex(a));
  BOOST_TEST(c_order_hex(b2) == c_order_hex(b));
  BOOST_TEST(c2.size() == 0);
  std::string m;
  BOOST_TEST(error_kind([&] { (void)cupp::host::load<float>(s); }, m) == "value_error");
  BOOST_TEST(m.starts_with("EOF: reading magic string, expected 8 bytes got 0"), m);

  // read_npy_header leaves the stream at the data.
  std::istringstream f(file_bytes(fixture_path("good/dtype_int16.npy")));
  const auto h = cupp::read_npy_header(f);
  BOOST_TEST(static_cast<std::size_t>(f.tellg()) == h.data_offset);
}

BOOST_AUTO_TEST_CASE(header_layout) {
  // np.save's bytes for a float32 (3, 4) array's header.
  const std::string h = npyd::format_header(cupp::dtype_of<float>(), {3, 4}, false);
  BOOST_TEST(h.size() == 128u);
  BOOST_TEST(h.substr(0, 10) == std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
  BOOST_TEST(h.substr(10, dict.size()) == dict);
  BOOST_TEST(h.find_first_not_of(' ', 10 + dict.size()) == h.size() - 1);
  BOOST_TEST(h.back() == '\n');
  // Headers past 64 KiB need version 2.0 and its 4-byte length; NumPy's
  // choice of version and padding for dicts around that size.
  int seen = 0;
  for (const auto& line : cupp_test::fixture_lines("npy/ref/wrap.txt")) {
    std::istringstream in(line);
    std::size_t n = 0, total = 0;
    int version = 0;
    in >> n >> version >> total;
    const std::string big = npyd::wrap_header(std::string(n, ' '));
    BOOST_TEST(static_cast<int>(big[6]) == version, n);
    BOOST_TEST(big.size() == total, n);
    BOOST_TEST(big.back() == '\n');
    ++seen;
  }
  BOOST_TEST(seen >= 8);
}

BOOST_AUTO_TEST_CASE(descriptor_spellings) {
  struct row {
    const char* descr;
    npyd::descr_match match;
    const char* name;
    bool big;
  };
  using M = npyd::descr_match;
  const row rows[] = {
      {"<f4", M::cupp, "float32", false},  {">f4", M::cupp, "float32", true},
      {"=f4", M::cupp, "float32", false},  {"|f4", M::cupp, "float32", false},
      {"f4", M::cupp, "float32", false},   {"f", M::cupp, "float32", false},
      {"<f", M::cupp, "float32", false},   {"float32", M::cupp, "float32", false},
      {"|b1", M::cupp, "bool", false},     {">b1", M::cupp, "bool", false},
      {"?", M::cupp, "bool", false},       {"b", M::cupp, "int8", false},
      {">i1", M::cupp, "int8", false},     {"B", M::cupp, "uint8", false},
      {"<u8", M::cupp, "uint64", false},   {"q", M::cupp, "int64", false},
      {"e", M::cupp, "float16", false},    {">c16", M::cupp, "complex128", true},
      {"D", M::cupp, "complex128", false}, {"<V2", M::cupp, "bfloat16", false},
      {">V2", M::cupp, "bfloat16", true},  {"bfloat16", M::cupp, "bfloat16", false},
      {"|V2", M::foreign, "", false},      {"<V4", M::foreign, "", false},
      {"|O", M::object, "", false},        {"O", M::object, "", false},
      {"<U5", M::foreign, "", false},      {"|S3", M::foreign, "", false},
      {"<f16", M::foreign, "", false},     {"<M8[ns]", M::foreign, "", false},
      {"g", M::foreign, "", false},        {"zz9", M::invalid, "", false},
      {"", M::invalid, "", false},         {"<", M::invalid, "", false},
      {"<float32", M::invalid, "", false}, {"f4 ", M::invalid, "", false},
      {"<f4x", M::invalid, "", false},     {"<f99999999999999999999", M::invalid, "", false},
  };
  for (const row& r : rows) {
    const auto info = npyd::parse_descr(r.descr);
    BOOST_TEST((info.match == r.match), r.descr);
    if (r.match == M::cupp) {
      BOOST_TEST(info.type.name == r.name, r.descr);
      BOOST_TEST(info.big_endian == r.big, r.descr);
    }
  }
}

BOOST_AUTO_TEST_CASE(literal_subset) {
  auto parse = [](std::string_view s, bool longs = false) {
    return npyd::literal_parser(s, longs).parse();
  };
  auto repr = [&](std::string_view s) {
    const auto v = parse(s);
    return v ? npyd::py_repr(*v) : std::string("<error>");
  };
  BOOST_TEST(repr("{'a': (1, 2), \"b\": [True, None], }") == "{'a': (1, 2), 'b': [True, None]}");
  BOOST_TEST(repr("(3)") == "3");
  BOOST_TEST(repr("(3,)") == "(3,)");
  BOOST_TEST(repr("( )") == "()");
  BOOST_TEST(repr("-0") == "0");
  BOOST_TEST(repr("- 007") == "-7");
  BOOST_TEST(repr("'it''s'") == "<error>");
  BOOST_TEST(repr("\"it's\"") == "\"it's\"");
  BOOST_TEST(repr("'a\\x41\\n'") == "'aA\\n'");
  BOOST_TEST(repr("{'a': 1, 'a': 2}") == "{'a': 2}");
  BOOST_TEST(repr("3L") == "<error>");
  BOOST_TEST(repr("(,)") == "<error>");
  BOOST_TEST(repr("(1,,)") == "<error>");
  BOOST_TEST(repr("[1 2]") == "<error>");
  BOOST_TEST(repr("Truex") == "<error>");
  BOOST_TEST(repr("3.5") == "<error>");
  BOOST_TEST(repr("0x10") == "<error>");
  BOOST_TEST(repr("'unterminated") == "<error>");
  BOOST_TEST(repr("{'a' 1}") == "<error>");
  BOOST_TEST(npyd::py_repr(*parse("(3L, 4l)", true)) == "(3, 4)");
  const auto big = parse("99999999999999999999");
  BOOST_TEST(!big->fits);
  BOOST_TEST(big->text == "99999999999999999999");
  BOOST_TEST(parse("-9223372036854775808")->fits);
  BOOST_TEST(!parse("9223372036854775808")->fits);
  // Nesting is bounded, not limited by the native stack.
  BOOST_TEST(!parse(std::string(100000, '[')).has_value());
  BOOST_TEST(parse(std::string(60, '[') + std::string(60, ']')).has_value());
  BOOST_TEST(npyd::py_repr_str(std::string("\x93NUMPY\0", 7), true) == R"(b'\x93NUMPY\x00')");
}

// Needs a GPU: skipped (with a message) elsewhere.
BOOST_AUTO_TEST_CASE(device_arrays) {
  if (!cupp::cuda::is_available()) {
    BOOST_TEST_MESSAGE("skipped: device save/load needs a CUDA device");
    return;
  }
  for (const auto& e : good_files()) {
    BOOST_TEST_CONTEXT(e.name) {
      cupp_test::with_dtype(e.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        const fs::path in = fixture_path("good/" + e.name + ".npy");
        const cupp::ndarray<T> d = cupp::load<T>(in);
        BOOST_TEST(d.shape() == e.shape);
        BOOST_TEST((d.is_f_contiguous() && !d.is_c_contiguous()) == e.f_layout);
        BOOST_TEST(c_order_hex(d.get()) == e.data);
        const fs::path out = tmp_dir() / ("device_" + e.name + ".npy");
        cupp::save(out, d);
        BOOST_TEST(file_bytes(out) == file_bytes(fixture_path(e.resave)));
      });
    }
  }
  // A non-contiguous device view is written in C order.
  const auto base = cupp::load<double>(fixture_path("good/base_float64_4x6.npy"));
  const auto view =
      cupp::ndarray<double>::from_pointer(base.data() + 1, {2, 3}, {96, 16}, base.memory());
  const fs::path out = tmp_dir() / "device_view.npy";
  cupp::save(out, view);
  BOOST_TEST(file_bytes(out) == file_bytes(fixture_path("ref/view_strided.npy")));
  std::stringstream s;
  cupp::save(s, view);
  BOOST_TEST(c_order_hex(cupp::load<double>(s).get()) == c_order_hex(view.get()));
}

BOOST_AUTO_TEST_SUITE_END()
