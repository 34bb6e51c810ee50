#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("process-spans-gpus: FILL IN what the rule sees and what it says") {
  auto m = model_from({
      "FILL IN: one NCCL log line per literal, e.g. gpuA:100:100 [0] NCCL INFO ...",
  });
  auto found = run_rule("process-spans-gpus", m);
  CHECK(messages(found) == std::vector<std::string>{"FILL IN: severity: the exact message"});
}
