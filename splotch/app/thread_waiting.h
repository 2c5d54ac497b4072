// How OpenMP's threads wait between parallel loops. Left to itself, libgomp has each thread spin
// for a while (about 300,000 turns) after every loop before it sleeps; splotch's loops are few and
// each long (milliseconds or more), so on many threads the spinning buys nothing and takes the
// cores from the work between the loops (a picture's write, the GPU's host thread). On the 4 x
// H200 node (64 cores) a 2048² picture's six loops and its write took 34 ms on 32 threads, 100 ms
// on 64 (each loop 10 ms instead of 0.5), and a GPU fly-through of 48 frames 9.7 s on 32 threads,
// 15.5 s on 64; with sleeping threads the loops took 18-21 ms on 32 to 64 threads alike. On 32
// threads and fewer spinning cost nothing there (and sleeping 0-4% on a 2-core machine), so the
// policy changes only where a process may come to run more than 32: more cores than that, or
// more threads asked for (an MPI process given 16 threads takes its node's 64 where it draws a
// frame alone). It can only be chosen before the OpenMP runtime starts, which is before main():
// hence a fresh start of the program with it set.
#pragma once

namespace splotch {

// Where the process may run on more than 32 cores or OpenMP would run more than 32 threads, and
// the user has chosen no waiting policy
// (OMP_WAIT_POLICY, GOMP_SPINCOUNT, KMP_BLOCKTIME are unset), starts this program again, the same
// process and arguments, with OMP_WAIT_POLICY = PASSIVE; returns where it need not or the new
// start could not be made (the run then goes on as before). Call first in main(), before MPI's
// start or any thread.
void start_again_with_sleeping_threads(char** argv);

// Whether `environment` (NAME=value entries, ending in a null pointer, as `environ`) names a
// waiting policy, which start_again_with_sleeping_threads() then leaves as it is.
bool waiting_policy_chosen(const char* const* environment);

}  // namespace splotch
