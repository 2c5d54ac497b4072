// How OpenMP's threads wait between parallel loops. Left to itself, libgomp has each thread spin
// for a while (about 300,000 turns) after every loop before it sleeps; splotch's loops are few and
// each long (milliseconds or more), so on many threads the spinning buys nothing and takes the
// cores from the work between the loops (a picture's write, the GPU's host thread). On the 4 x
// H200 node (64 cores) a 2048² picture's six loops and its write took 26 ms on 32 spinning
// threads and 103 ms on 64 (a loop about 10 ms instead of 0.5, the write 48 ms instead of 17),
// against 28-29 ms on 32 to 64 sleeping threads; one GPU's fly-through of 48 frames took 13.6 s
// on 64 spinning threads, 9.8 s sleeping. On 32 threads the two were alike there, and sleeping
// cost 0-4% on a 2-core machine, so the policy changes only where a process may come to run more
// than 32: more threads asked for, or, for a process an MPI launcher started, more cores (rank 0
// drawing a frame alone takes its node's threads). It can only be chosen before the OpenMP
// runtime starts, which is before main(): hence a fresh start of the program with it set (about
// 7 ms: the libraries loaded again).
#pragma once

namespace splotch {

// Where start_again_with_sleeping_threads() leaves the threads as they are, from `environment`
// (NAME=value entries ending in a null pointer, as `environ`): the user chose a waiting policy
// (OMP_WAIT_POLICY or one of its _ALL / _DEV forms, GOMP_SPINCOUNT, KMP_BLOCKTIME, KMP_LIBRARY);
// threads are bound to places (OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY, KMP_AFFINITY:
// libgomp binds the first thread at its start, and a new start would keep only its place); or
// valgrind's preload is there (the new start would leave the tool).
bool waiting_left_as_is(const char* const* environment);

// Whether a process may come to run more than 32 threads: `threads` asked for (OpenMP's maximum),
// or, where an MPI launcher started it, the `cores` it may run on.
bool more_than_32_threads(int threads, int cores, bool mpi_launched);

// Where more_than_32_threads() and not waiting_left_as_is(environ), and no debugger or tracer is
// attached, starts this program again, the same process and arguments, with OMP_WAIT_POLICY =
// PASSIVE; returns where it need not or the new start could not be made (the run then goes on as
// it was). Call first in main(), before MPI's start or any thread.
void start_again_with_sleeping_threads(char** argv);

}  // namespace splotch
