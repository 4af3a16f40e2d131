// The NVTX event attributes of the profiler's ranges and marks
// (<cupp/profiler.hpp>): the message and, when given, an ARGB colour.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <optional>

namespace cupp::profiler::detail {

inline nvtxEventAttributes_t nvtx_attributes(const char* message,
                                             std::optional<std::uint32_t> argb) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  if (argb) {
    a.colorType = NVTX_COLOR_ARGB;
    a.color = *argb;
  }
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message;
  return a;
}

}  // namespace cupp::profiler::detail
