#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("process-crashed: each runtime's report of a signal, one finding per signal") {
  auto m = model_from({
      "gpu01:4682:4690 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM",
      "[gpu01:4682 :0:4682] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))",
      "==== backtrace (tid:   4682) ====",
      " 0 0x0000000000042520 __sigaction()  ???:0",
      " 1 0x0000000000050dc2 pncclRedOpDestroy()  ???:0",
      "[gpu02:11840] Signal: Segmentation fault (11)",
      "torch.distributed.elastic.multiprocessing.api:[ERROR] failed (exitcode: -6) local_rank: 0 (pid: 9182)",
      "  exitcode  : -6 (pid: 9182)",
      "srun: error: gpu03: task 2: Bus error",
      "Segmentation fault (core dumped)",
      "mpirun noticed that process rank 3 with PID 0 on node gpu04 exited on signal 15 (Terminated).",
  });
  auto found = run_rule("process-crashed", m);
  CHECK(messages(found) == std::vector<std::string>{
      "error: 1 report of a process that died on SIGABRT (signal 6): abort: a failed assertion, an uncaught C++ "
      "exception or a runtime's fatal error",
      "error: 1 report of a process that died on SIGBUS (signal 7): bus error: in a container, usually /dev/shm too "
      "small for NCCL's shared memory",
      "error: 3 reports of a process that died on SIGSEGV (signal 11): segmentation fault: a bad memory access in the "
      "process; its backtrace runs through NCCL",
      "info: 1 report of a process that died on SIGTERM (signal 15): terminated: the launcher or the scheduler "
      "stopped it, often after another process failed",
  });
}

TEST_CASE("process-crashed: words about signals that report no crash") {
  auto m = model_from({
      "gpu01:4682:4682 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
      "[gpu01:11840] *** Process received signal ***",
      "signal handler installed for SIGUSR1",
      "Received SIGTERM, saving checkpoint",
      "grep -c 'Segmentation fault' job.log",
      "  exitcode  : 1 (pid: 9182)",
  });
  CHECK(run_rule("process-crashed", m).empty());
}
