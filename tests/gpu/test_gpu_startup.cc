// GpuStartup (splotch/render/gpu_startup.h): the background start of the GPU tells what
// cuda_device_present() tells, and where there is a GPU its session renders the host's picture.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "splotch/render/gpu_render.h"
#include "splotch/render/gpu_startup.h"
#include "splotch/render/host_renderer.h"
#include "tests/support/test_support.h"

namespace splotch {

TEST_CASE(
    "gpu startup: finds the device (or says why not), lends a core meanwhile, hands over a working session that "
    "stays") {
  std::string why_direct, why_startup;
  const bool present = cuda_device_present(&why_direct);
  const int threads = omp_get_max_threads();
  GpuStartup startup;
  CHECK(omp_get_max_threads() == std::max(threads - 1, 1));  // a core for the start-up
  CHECK(startup.device_present(&why_startup) == present);
  CHECK(why_startup.empty() == present);
  CHECK(startup.device_present() == present);  // asked again: the same answer
  if (!present) {
    CHECK(startup.device_memory() == 0);
    CHECK(omp_get_max_threads() == threads);  // given back: nothing more to start
    CHECK(why_startup == why_direct);
    MESSAGE("GPU test skipped: " << why_startup);
    return;
  }
  // Its memory, as the GPU tells it (every GPU of the field has at least 1 GB; none 10 TB).
  std::size_t memory = 0;
  REQUIRE(cuda_device_present(nullptr, 0, &memory));
  CHECK(startup.device_memory() == memory);
  CHECK(memory > (std::size_t(1) << 30));
  CHECK(memory < (std::size_t(10) << 40));
  CudaSession* session = startup.session();
  REQUIRE(session);
  CHECK(startup.session() == session);  // kept for the frames after
  CHECK(omp_get_max_threads() == threads);
  testing::SplatArrays s;
  s.add(20.5f, 11.0f, 6.0f, 1.0f, 0.5f, 0.25f);
  s.add(3.0f, 25.0f, 60.0f, 0.1f, 0.2f, 0.3f);  // 45 pixels, wider than the boundary: the host's part
  Image host(40, 30), gpu(40, 30);
  CudaOptions o;
  render_host(s.view(), o.host, host);
  const CudaReport report = render_gpu(s.view(), o, gpu, session);
  CHECK(report.on_gpu == 1);
  CHECK(report.on_host == 1);
  CHECK(testing::max_abs_difference(host, gpu) <= 1e-4f * testing::max_value(host));
}

TEST_CASE("gpu startup: a held start touches no GPU until released, then finds it and starts its session, or never") {
  std::string why_direct;
  const bool present = cuda_device_present(&why_direct);
  {
    GpuStartup never(0, true);
    CHECK(never.held());
    CHECK(!never.over());  // not even the search for the device has run
    CHECK_THROWS_AS(never.device_present(), std::logic_error);
  }  // released without a start: its end does not wait for one
  {
    GpuStartup off(0, true);
    off.release(false);
    CHECK(!off.held());
    std::string why;
    CHECK(!off.device_present(&why));  // given up: no device looked for, and it says so
    CHECK(why.find("not started") != std::string::npos);
    CHECK(off.over());
    CHECK_THROWS_AS(off.session(), std::logic_error);
  }
  GpuStartup held(0, true);
  held.release();
  CHECK(!held.held());
  std::string why;
  CHECK(held.device_present(&why) == present);
  if (!present) {
    CHECK(why == why_direct);
    // renderer = cuda's error where the process draws: the start says why there is no device.
    try {
      held.session();
      FAIL("a start without a device gave a session");
    } catch (const std::runtime_error& e) { CHECK(std::string(e.what()) == why_direct); }
    MESSAGE("GPU part skipped: " << why_direct);
    return;
  }
  CudaSession* session = held.session();
  REQUIRE(session);
  CHECK(held.over());
  CHECK(held.session() == session);
  held.release(false);  // after the start: nothing changes
  CHECK(held.session() == session);
}

TEST_CASE("gpu startup: the GPUs a process sees, told without CUDA from the driver's list and CUDA_VISIBLE_DEVICES") {
  CHECK(visible_gpus(4, nullptr) == 4);
  CHECK(visible_gpus(-1, nullptr) == -1);  // not known
  CHECK(visible_gpus(4, "0,1") == 2);
  CHECK(visible_gpus(4, "3") == 1);
  CHECK(visible_gpus(4, "") == 0);
  CHECK(visible_gpus(2, "0,1,2,3") == 2);  // CUDA stops at the first index it has not
  CHECK(visible_gpus(4, "1,-1,2") == 1);
  CHECK(visible_gpus(4, "1,x") == 1);
  CHECK(visible_gpus(4, "GPU-8f2c1a,GPU-77b0") == 2);
  CHECK(visible_gpus(1, "MIG-1a2b,MIG-3c4d") == 1);  // at most the driver's
  CHECK(visible_gpus(-1, "GPU-8f2c1a,0") == 2);
  // On this machine: as many as CUDA finds (where the driver lists its GPUs).
  int cuda = 0;
  while (cuda_device_present(nullptr, cuda)) ++cuda;
  const int listed = visible_gpu_count();
  if (cuda == 0) {
    CHECK(listed <= 0);
    MESSAGE("GPU part skipped: no GPU");
  } else {
    CHECK((listed == cuda || listed == -1));
  }
}

TEST_CASE("gpu startup: a process that reaches no other GPU is shown its own alone (CUDA_VISIBLE_DEVICES)") {
  CHECK(own_gpu_entry(1, 2, nullptr) == "1");
  CHECK(own_gpu_entry(0, 4, nullptr) == "0");
  CHECK(own_gpu_entry(0, 4, "2,3,5,7") == "2");
  CHECK(own_gpu_entry(2, 4, "2,3,5,7") == "5");
  CHECK(own_gpu_entry(3, 4, "2,3,5,7") == "7");
  CHECK(own_gpu_entry(1, 2, "GPU-8f2c1a,GPU-77b0") == "GPU-77b0");
  CHECK(own_gpu_entry(1, visible_gpus(4, "0,3,x,1"), "0,3,x,1") == "3");  // (CUDA stops at x)
  CHECK(own_gpu_entry(2, visible_gpus(4, "0,3,x,1"), "0,3,x,1") == "");   // beyond the GPUs it sees
  CHECK(own_gpu_entry(0, 1, "3") == "");                                  // one already
  CHECK(own_gpu_entry(0, 1, nullptr) == "");                              // the machine's only one
  CHECK(own_gpu_entry(0, 0, "") == "");                                   // none
  CHECK(own_gpu_entry(0, -1, nullptr) == "");                             // not known (MIG instances)
  CHECK(own_gpu_entry(2, 2, nullptr) == "");                              // no GPU of its own
  CHECK(own_gpu_entry(1, 2, "4,") == "");                                 // an empty entry
  CHECK(own_gpu_entry(3, 4, "0,1") == "");                                // a count the list does not hold
  // In this process, where CUDA may have started (the cases before, or here): the list stays as
  // CUDA saw it, else the device indices would no longer be CUDA's. (The environment is put back.)
  struct Restore {
    const char* set = std::getenv("CUDA_VISIBLE_DEVICES");
    const std::string before = set ? set : "";
    ~Restore() {
      if (set)
        ::setenv("CUDA_VISIBLE_DEVICES", before.c_str(), 1);
      else
        ::unsetenv("CUDA_VISIBLE_DEVICES");
    }
  } restore;
  const bool gpu = cuda_device_present(nullptr);  // (the driver loaded, where there is one)
  const int visible = visible_gpu_count();
  const int device = std::max(visible - 1, 0);
  CHECK(see_own_gpu_only(device) == device);
  const char* after = std::getenv("CUDA_VISIBLE_DEVICES");
  CHECK(bool(after) == bool(restore.set));
  if (after) CHECK(std::string(after) == restore.before);
  CHECK(visible_gpu_count() == visible);
  if (!gpu) MESSAGE("the narrowing's machine part: no GPU here (the MPI cases on 2 GPUs show it narrows)");
}

}  // namespace splotch
