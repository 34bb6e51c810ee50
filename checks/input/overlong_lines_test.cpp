#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("lines cut at 64 KiB are counted, once for the whole input") {
  JobModel m;
  ModelBuilder builder(m);
  uint32_t file = builder.add_file("job.log");
  std::string head = "gpuA:100:100 [0] NCCL INFO " + std::string(1000, 'x');
  builder.add_line(file, Line{head, 1, true});
  builder.add_line(file, Line{head, 2, true});
  builder.finish();
  CHECK(messages(run_rule("overlong-lines", m)) ==
        std::vector<std::string>{"info: 2 lines were longer than 64 KiB; only the first 64 KiB of each was read"});
  CHECK(run_rule("overlong-lines", model_from({"gpuA:100:100 [0] NCCL INFO NET/IB : No device found."})).empty());
}
