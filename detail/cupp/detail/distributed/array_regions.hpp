// The geometry of a distributed array's chunks: rectangular regions (boxes)
// of the array, their intersections and differences, which chunk owns each
// element (the first chunk in index-map order that covers it), and the
// checks that make an index map acceptable. Plain host code: no arrays.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <cupp/errors.hpp>
#include <cupp/index_types.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::darray {

// A region [begin, end) per axis. A 0-d array's only region has no axes and
// holds one element.
struct box {
  std::vector<index_t> begin, end;

  index_t volume() const {
    index_t v = 1;
    for (std::size_t d = 0; d < begin.size(); ++d) v *= end[d] - begin[d];
    return v;
  }
  shape_t extent() const {
    shape_t s;
    for (std::size_t d = 0; d < begin.size(); ++d) s.push_back(end[d] - begin[d]);
    return s;
  }
  friend bool operator==(const box&, const box&) = default;
};

inline std::string describe(const box& b) {
  std::string s = "(";
  for (std::size_t d = 0; d < b.begin.size(); ++d) {
    if (d) s += ", ";
    s += std::to_string(b.begin[d]) + ":" + std::to_string(b.end[d]);
  }
  return s + (b.begin.size() == 1 ? ",)" : ")");
}

inline std::optional<box> intersect(const box& a, const box& b) {
  box r = a;
  for (std::size_t d = 0; d < a.begin.size(); ++d) {
    r.begin[d] = std::max(a.begin[d], b.begin[d]);
    r.end[d] = std::min(a.end[d], b.end[d]);
    if (r.begin[d] >= r.end[d]) return std::nullopt;
  }
  return r;
}

// a minus b as disjoint boxes: peel off, axis by axis, the slabs of a that
// lie below and above b; what remains is inside b.
inline std::vector<box> subtract(const box& a, const box& b) {
  if (!intersect(a, b)) return a.volume() == 0 ? std::vector<box>{} : std::vector<box>{a};
  std::vector<box> out;
  box rest = a;
  for (std::size_t d = 0; d < a.begin.size(); ++d) {
    if (rest.begin[d] < b.begin[d]) {
      box slab = rest;
      slab.end[d] = b.begin[d];
      out.push_back(slab);
      rest.begin[d] = b.begin[d];
    }
    if (rest.end[d] > b.end[d]) {
      box slab = rest;
      slab.begin[d] = b.end[d];
      out.push_back(slab);
      rest.end[d] = b.end[d];
    }
  }
  return out;
}

inline std::vector<box> subtract_all(std::vector<box> pieces, const std::vector<box>& holes) {
  for (const box& h : holes) {
    std::vector<box> next;
    for (const box& p : pieces)
      for (box& q : subtract(p, h)) next.push_back(std::move(q));
    pieces = std::move(next);
  }
  return pieces;
}

// owned[k]: the disjoint parts of chunk k that no earlier chunk covers, so
// that every covered element belongs to exactly one chunk.
inline std::vector<std::vector<box>> owned_boxes(const std::vector<box>& chunks) {
  std::vector<std::vector<box>> owned(chunks.size());
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    std::vector<box> earlier(chunks.begin(), chunks.begin() + static_cast<std::ptrdiff_t>(k));
    owned[k] = subtract_all({chunks[k]}, earlier);
  }
  return owned;
}

inline index_t owned_volume(const std::vector<std::vector<box>>& owned) {
  index_t v = 0;
  for (const auto& pieces : owned)
    for (const box& b : pieces) v += b.volume();
  return v;
}

// `inner` moved into the coordinates of `outer` (which contains it).
inline box relative(const box& inner, const box& outer) {
  box r = inner;
  for (std::size_t d = 0; d < inner.begin.size(); ++d) {
    r.begin[d] -= outer.begin[d];
    r.end[d] -= outer.begin[d];
  }
  return r;
}

// The basic index that views region b of an array.
inline std::vector<cupp::index_item> view_index(const box& b) {
  std::vector<cupp::index_item> items;
  for (std::size_t d = 0; d < b.begin.size(); ++d)
    items.emplace_back(cupp::slice(b.begin[d], b.end[d]));
  return items;
}

// One chunk index (a slice per leading axis, step 1, Python's negative
// bounds) as a region of an array of `shape`.
inline box normalize(const std::vector<cupp::slice>& index, const shape_t& shape) {
  const int nd = static_cast<int>(shape.size());
  if (static_cast<int>(index.size()) > nd)
    throw value_error("chunk index has " + std::to_string(index.size()) +
                      " slices for an array of " + std::to_string(nd) + " dimensions");
  box b;
  for (int d = 0; d < nd; ++d) {
    const index_t n = shape[d];
    index_t lo = 0, hi = n;
    if (d < static_cast<int>(index.size())) {
      const cupp::slice& s = index[d];
      if (s.step().given && s.step().value != 1)
        throw value_error("chunk index: slice step must be 1 (axis " + std::to_string(d) +
                          " has step " + std::to_string(s.step().value) + ")");
      if (s.start().given) lo = s.start().value < 0 ? s.start().value + n : s.start().value;
      if (s.stop().given) hi = s.stop().value < 0 ? s.stop().value + n : s.stop().value;
      if (lo < 0 || hi > n || lo > hi)
        throw value_error("chunk index out of bounds: axis " + std::to_string(d) + " of size " +
                          std::to_string(n) + " cannot hold " + std::to_string(lo) + ":" +
                          std::to_string(hi));
    }
    b.begin.push_back(lo);
    b.end.push_back(hi);
  }
  return b;
}

inline std::vector<cupp::slice> to_index(const box& b) {
  std::vector<cupp::slice> s;
  for (std::size_t d = 0; d < b.begin.size(); ++d) s.emplace_back(b.begin[d], b.end[d]);
  return s;
}

// An index map's chunks in its order (devices ascending, each device's
// chunks in the order given), checked against the array's shape and the
// devices present.
struct placed_box {
  int device;
  box region;
};
inline std::vector<placed_box> place(const std::map<int, std::vector<std::vector<cupp::slice>>>& m,
                                     const shape_t& shape, int device_count) {
  std::vector<placed_box> out;
  for (const auto& [dev, indices] : m) {
    if (dev < 0 || dev >= device_count)
      throw value_error("index map names device " + std::to_string(dev) + " but " +
                        std::to_string(device_count) + " device(s) exist");
    for (const auto& index : indices) out.push_back({dev, normalize(index, shape)});
  }
  return out;
}

inline std::vector<box> regions(const std::vector<placed_box>& placed) {
  std::vector<box> r;
  for (const placed_box& p : placed) r.push_back(p.region);
  return r;
}

inline void check_covers(const std::vector<box>& chunks, const shape_t& shape, const char* what) {
  if (owned_volume(owned_boxes(chunks)) != detail::size_of(shape))
    throw value_error(std::string(what) + ": the index map does not cover the array of shape " +
                      detail::np_shape(shape));
}

// The cells of a block grid: sorted boundaries along each axis, and for
// each cell (i, j) the first chunk whose region it is. Throws unless the
// regions are exactly the cells of a grid that spans the array.
struct block_grid {
  std::vector<index_t> rows, cols;
  std::vector<std::vector<std::size_t>> cell;  // [i][j] -> chunk
};
inline block_grid grid_of(const std::vector<box>& chunks, const shape_t& shape, const char* name) {
  block_grid g;
  g.rows = {0, shape[0]};
  g.cols = {0, shape[1]};
  for (const box& b : chunks) {
    g.rows.push_back(b.begin[0]);
    g.rows.push_back(b.end[0]);
    g.cols.push_back(b.begin[1]);
    g.cols.push_back(b.end[1]);
  }
  for (auto* v : {&g.rows, &g.cols}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  const auto at = [](const std::vector<index_t>& v, index_t x) {
    return static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), x) - v.begin());
  };
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  g.cell.assign(g.rows.size() - 1, std::vector<std::size_t>(g.cols.size() - 1, none));
  const std::string bad =
      std::string("matmul: the chunks of ") + name + " do not form a block grid";
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const box& b = chunks[k];
    const std::size_t i = at(g.rows, b.begin[0]), j = at(g.cols, b.begin[1]);
    if (i + 1 >= g.rows.size() || j + 1 >= g.cols.size() || g.rows[i + 1] != b.end[0] ||
        g.cols[j + 1] != b.end[1])
      throw value_error(bad + " (chunk " + describe(b) + " spans several cells)");
    if (g.cell[i][j] == none) g.cell[i][j] = k;
  }
  for (const auto& row : g.cell)
    for (std::size_t k : row)
      if (k == none) throw value_error(bad + " (a cell has no chunk)");
  return g;
}

}  // namespace cupp::detail::darray
