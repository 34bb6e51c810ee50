// Runs one command as GNU time does, to the microsecond:
//
//   measure OUT ERR COMMAND [ARG ...]
//
// runs COMMAND with its standard output in OUT and its error output in ERR
// and prints one line: wall, user and system seconds, peak RSS (KB), minor
// page faults and blocks read from disk (512 bytes each), GNU time's
// `%e %U %S %M %R %I` with six decimals instead of two. At hundredths, a case
// that takes a tenth of a second (1024 per-rank files) has a CPU ratio off by
// up to a fifth. Like GNU time it is a small program that forks and waits:
// the peak RSS a child inherits from its parent before exec counts in its own,
// so a large parent (Python: 13 MB) would hide a small command's. A command
// killed by a signal, or one that could not be run, is no timing: measure says
// so and fails. So does an exit status of 126 or more, which is how a shell
// reports the same of its command (126, 127, 128 + the signal); a lower one is
// a timing (nccl-doctor reports findings with 1).
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: measure OUT ERR COMMAND [ARG ...]\n");
    return 2;
  }
  int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0 || err < 0) {
    perror("measure: cannot open an output");
    return 2;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  pid_t pid = fork();
  if (pid < 0) {
    perror("measure: fork");
    return 2;
  }
  if (pid == 0) {
    if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0) _exit(126);
    execvp(argv[3], argv + 3);
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(pid, &status, 0, &usage) < 0) {
    perror("measure: wait4");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  if (WIFSIGNALED(status)) {
    fprintf(stderr, "measure: %s was killed by signal %d: no timing\n", argv[3], WTERMSIG(status));
    return 1;
  }
  if (WEXITSTATUS(status) >= 126) {
    fprintf(stderr, "measure: %s ended with status %d (a command not found, not executable or killed): no timing\n",
            argv[3], WEXITSTATUS(status));
    return 1;
  }
  double wall = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
  printf("%.6f %ld.%06ld %ld.%06ld %ld %ld %ld\n", wall, (long)usage.ru_utime.tv_sec, (long)usage.ru_utime.tv_usec,
         (long)usage.ru_stime.tv_sec, (long)usage.ru_stime.tv_usec, usage.ru_maxrss, usage.ru_minflt,
         usage.ru_inblock);
  return 0;
}
