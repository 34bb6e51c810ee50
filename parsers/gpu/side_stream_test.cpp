#include "parsers/gpu/side_stream.h"

#include <doctest/doctest.h>

namespace nd {

TEST_CASE("canonical_bus_id reads every tool's form of a PCI address") {
  CHECK(canonical_bus_id("00000000:06:00.0") == "0000:06:00.0");  // nvidia-smi
  CHECK(canonical_bus_id("00000000:1B:00.0") == "0000:1b:00.0");
  CHECK(canonical_bus_id("0000:19:00") == "0000:19:00.0");        // nccl-tests 2.14+
  CHECK(canonical_bus_id("0x0f") == "0000:0f:00.0");              // nccl-tests before
  CHECK(canonical_bus_id("1b000") == "0000:1b:00.0");             // NCCL's busId
  CHECK(canonical_bus_id("10c100") == "0001:0c:10.0");
  CHECK(canonical_bus_id("06:00.0") == "0000:06:00.0");
  CHECK(canonical_bus_id("").empty());
  CHECK(canonical_bus_id("N/A").empty());
  CHECK(canonical_bus_id("0000:zz:00.0").empty());
  CHECK(canonical_bus_id("0000:06:00.9").empty());
}

TEST_CASE("a stream without a reader that knows the line takes nothing") {
  SideStream stream;
  CHECK_FALSE(stream.feed("epoch 1 loss 0.25", 1));
  stream.finish();
  CHECK(stream.records.kinds.empty());
}

}  // namespace nd
