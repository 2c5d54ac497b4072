// The end of a run that started the GPU. Once the picture is written and the report printed, all
// that is left is the CUDA driver's teardown of the context, which the kernel does when the
// process's device files close. The caller (a shell script, a batch of runs, a benchmark) need
// not wait for it: a child process inherits the device files, so that their last close, and the
// teardown, are the child's, after this process has ended. Measured (issue 38, H100 node, 10 runs
// of 1e7 and 1e8 particles, docs/performance.md): the child held the GPU 1.4 to 1.7 s after the
// run's end, against 0.3 to 0.4 s for the run itself; that is what keeping this saves a caller.
#pragma once

namespace splotch {

// Flushes stdout and stderr and ends the process with `status`, leaving the GPU's teardown to a
// child that says nothing, holds none of the process's files open but the GPU's device files, and
// ends once this process has. Where no child can be made, the process ends as usual. For an MPI
// process only after MPI_Finalize; not while a thread may be inside the CUDA driver
// (GpuStartup::teardown_may_be_left()). Where the machine's init does not reap orphans (some
// containers), each such run leaves a zombie process behind.
[[noreturn]] void end_leaving_gpu_teardown(int status);

}  // namespace splotch
