// The declaration of cupp::random::basic_generator, which
// <cupp/random/generator.hpp> defines: the machinery of detail/random/
// names it in its templates (multivariate_normal draws its normals through
// the generator's own standard_normal) as it names arrays through
// <cupp/array_fwd.hpp>, and gets the definition at instantiation. A
// vocabulary header.
// cupp-layer: vocabulary
#pragma once

namespace cupp::random {

template <class S>
class basic_generator;  // <cupp/random/generator.hpp>

}  // namespace cupp::random
