# splotch: build, demo, tests and benchmark. `make help` lists the targets.
#
# Everything is built with g++ (C++17, -O3, OpenMP) into build/ (objects) and bin/ (programs).
# ARCH defaults to the machine that builds, since the binary is normally built where it runs;
# set ARCH= (empty) for a portable build.

# Plain `make` builds the programs (rules below, such as the CUDA objects' extra prerequisite, would
# otherwise make the first of them the goal). tests/unit/test_build.cc checks it.
.DEFAULT_GOAL := all

CXX      ?= g++
ARCH     ?= -march=native
CXXFLAGS ?= -O3 $(ARCH) -g
# -fno-math-errno: no code reads errno after maths, and it lets sqrt vectorise.
CXXFLAGS += -std=c++17 -fopenmp -fno-math-errno -Wall -Wextra -Wshadow -I.
# Position-independent code, so that the same objects make the Python module (a shared library,
# make python); without semantic interposition, so that the compiler inlines as it did without.
CXXFLAGS += -fPIC -fno-semantic-interposition
LDLIBS   += -lstb -lz -lcfitsio
DEPFLAGS  = -MMD -MP
# The server (bin/splotch --serve) is on Debian's cpp-httplib, a compiled library built with these
# three options: its header must see them too.
HTTPLIB_FLAGS := -DCPPHTTPLIB_OPENSSL_SUPPORT -DCPPHTTPLIB_ZLIB_SUPPORT -DCPPHTTPLIB_BROTLI_SUPPORT
CXXFLAGS += $(HTTPLIB_FLAGS)
LDLIBS   += -lcpp-httplib -pthread

# Debian packages the build and tests need (`make deps` installs the missing ones).
DEB_PACKAGES = g++ make libhdf5-dev doctest-dev libstb-dev zlib1g-dev libcpp-httplib-dev libcfitsio-dev fonts-dejavu-core \
               python3-dev python3-pybind11 python3-numpy python3-pytest python3-venv python3-pip python3-h5py \
               jupyter-nbconvert python3-ipykernel python3-matplotlib

LIB_SRC  := $(wildcard params/*.cc io/*.cc) $(filter-out splotch/app/main.cc splotch/mpi/mpi_comm.cc,$(wildcard splotch/*/*.cc))
# The suite's folders (tests/README.md): unit/ (what the sanitized build runs too), gpu/, end_to_end/
# (cases that run bin/splotch as a user does), mpi/, and support/ (helpers, doctest's main).
TEST_SRC := $(wildcard tests/unit/test_*.cc tests/gpu/test_*.cc tests/end_to_end/test_*.cc tests/mpi/test_*.cc) \
            tests/support/test_main.cc

# HDF5 snapshots (simtype 7, 8) are read with Debian's serial libhdf5 when its headers are there;
# `make HDF5=0` builds without it (io/no_hdf5.cc stands in and says so when asked for HDF5).
HDF5_INC ?= /usr/include/hdf5/serial
HDF5_LIB ?= /usr/lib/$(shell $(CXX) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/hdf5/serial
HDF5     ?= $(if $(wildcard $(HDF5_INC)/hdf5.h),1,0)
# The tests that write HDF5 files compile differently with and without it: rebuild them when
# HDF5 changes between builds.
HDF5_STAMP := build/hdf5_$(HDF5)
$(shell mkdir -p build && [ -f $(HDF5_STAMP) ] || { rm -f build/hdf5_*; touch $(HDF5_STAMP); })
ifeq ($(HDF5),1)
LIB_SRC  := $(filter-out io/no_hdf5.cc,$(LIB_SRC))
HDF5_FLAGS := -DSPLOTCH_HDF5 -I$(HDF5_INC)
HDF5_LIBS  := -L$(HDF5_LIB) -lhdf5
else
LIB_SRC  := $(filter-out io/hdf5_file.cc io/hdf5_table_reader.cc io/phantom_hdf5.cc io/enzo_hdf5.cc io/swift_cells.cc,$(LIB_SRC))
endif

# The GPU renderer (cuda/) is built whenever nvcc is found, on PATH or in /usr/local/cuda;
# `make CUDA=0` builds without it (cuda/no_cuda.cc stands in). sm_90 code, plus PTX for compute
# capability 7.5 that the driver compiles for any other GPU.
NVCC ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA ?= $(if $(NVCC),1,0)
ifeq ($(CUDA),1)
CUDA_HOME  ?= $(patsubst %/bin/nvcc,%,$(NVCC))
NVCCFLAGS  ?= -O3 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_75,code=compute_75
NVCCFLAGS  += -std=c++17 -I. -Xcompiler -fopenmp,-Wall,-Wshadow,-fPIC
CUDA_SRC   := $(wildcard cuda/*.cu)
CUDA_OBJ   := $(CUDA_SRC:%.cu=build/obj/%.o)
LDLIBS     += -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lpthread
# `make CUDA_SYNC=1`: every kernel launch waits for the device and names the launch that failed
# (cuda/cuda_check.h); for finding a kernel's fault, and slower. The CUDA objects rebuild when it
# changes.
CUDA_SYNC  ?= 0
CUDA_SYNC_STAMP := build/cuda_sync_$(CUDA_SYNC)
$(shell mkdir -p build && [ -f $(CUDA_SYNC_STAMP) ] || { rm -f build/cuda_sync_*; touch $(CUDA_SYNC_STAMP); })
NVCCFLAGS  += -DSPLOTCH_SYNC_AFTER_LAUNCH=$(CUDA_SYNC)
$(CUDA_OBJ): $(CUDA_SYNC_STAMP)
else
LIB_SRC    += cuda/no_cuda.cc
CUDA_OBJ   :=
endif
LIB_OBJ  := $(LIB_SRC:%.cc=build/obj/%.o) $(CUDA_OBJ)

# MPI (docs/design.md section 6): bin/splotch_mpi is built with mpicxx (OpenMPI: Debian's
# libopenmpi-dev and openmpi-bin) whenever mpicxx is found, into build/mpi; `make MPI=1` makes
# bin/splotch that build, and `make deps MPI=1` installs OpenMPI. The default bin/splotch needs
# no MPI (splotch/mpi/no_mpi.cc stands in).
MPI      ?= 0
MPICXX   ?= $(shell command -v mpicxx 2>/dev/null)
ifeq ($(MPI),1)
DEB_PACKAGES += libopenmpi-dev openmpi-bin
endif
# `make deps FUZZ=1`: clang and its sanitizer runtimes, for the fuzzing harnesses (make fuzz), and
# clang-format (make format-check).
FUZZ     ?= 0
ifeq ($(FUZZ),1)
DEB_PACKAGES += clang libclang-rt-dev clang-format
endif
# `make deps BROWSER=1`: Debian's Chromium and ChromeDriver, for the test of the server's page in a
# real browser (tests/browser/serve_page_test.py, and the notebook's IFrame of splotch.explore:
# notebook_explorer_test.py; run by make test; each says so and is skipped
# where they are not installed).
BROWSER  ?= 0
ifeq ($(BROWSER),1)
DEB_PACKAGES += chromium chromium-driver python3
endif
# Only splotch/mpi/mpi_comm.cc sees MPI: the other objects are the default build's.
MPI_OBJ  := build/obj/splotch/app/main.o $(filter-out build/obj/splotch/mpi/no_mpi.o,$(LIB_OBJ)) build/mpi/splotch/mpi/mpi_comm.o
MPI_STAMP := build/mpi_$(MPI)
$(shell mkdir -p build && [ -f $(MPI_STAMP) ] || { rm -f build/mpi_[01]; touch $(MPI_STAMP); })
TEST_OBJ := $(TEST_SRC:%.cc=build/obj/%.o)

BENCH_SNAPSHOT_SRC ?= ../shared/bench/make_snapshot.cc

.PHONY: all deps demo test include-check format-check format sanitize fuzz bench help clean references python python-test notebook

# Every program the README names (tests/unit/test_build.cc checks it): bin/splotch_mpi where mpicxx is found.
PROGRAMS := bin/splotch bin/splotch_path bin/make_demo bin/splotch_serve_bench bin/splotch_interpolate_bench $(if $(MPICXX),bin/splotch_mpi)
all: $(PROGRAMS)

help:
	@echo "make          build $(PROGRAMS)"
	@echo "make deps     install missing Debian packages with apt-get: $(DEB_PACKAGES)"
	@echo "make demo     render the demo picture to build/demo/"
	@echo "make test     build and run the test suite (with the MPI tests where mpicxx is found), after the include check,"
	@echo "              and the server's page in headless Chromium (make deps BROWSER=1 installs it)"
	@echo "make python  the Python module (python/splotch; PYTHONPATH=python, or pip install --no-build-isolation .)"
	@echo "make format-check   every source file as .clang-format lays it out (make format rewrites them)"
	@echo "make MPI=1    bin/splotch built with MPI (OpenMPI; make deps MPI=1 installs it); bin/splotch_mpi is that build"
	@echo "make bench    benchmark on ../shared/bench snapshots (1e6, 1e7 particles)"

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; \
	else echo "deps: installing$$missing"; \
	  if [ "$$(id -u)" -ne 0 ]; then echo "deps: run as root (or: sudo apt-get install$$missing)"; exit 1; fi; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

build/obj/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(HDF5_FLAGS) $(DEPFLAGS) -c $< -o $@

# The server's page from its files (splotch/serve/page/): the HTML with its style sheet and scripts
# put in the places that link them, as one C++ raw string literal (splotch/serve/serve_page.cc).
PAGE_FILES := $(wildcard splotch/serve/page/*)
build/gen/serve_page.inc: $(PAGE_FILES)
	@mkdir -p $(dir $@)
	@{ printf 'R"SPLOTCHPAGE('; \
	  awk '/^<link rel="stylesheet" href="page.css">$$/ { print "<style>"; while ((getline l < "splotch/serve/page/page.css") > 0) print l; print "</style>"; next } \
	       /^<script src="[a-z_]+\.js"><\/script>$$/ { f = $$0; sub(/^<script src="/, "", f); sub(/"><\/script>$$/, "", f); \
	         print "<script>"; while ((getline l < ("splotch/serve/page/" f)) > 0) print l; print "</script>"; next } \
	       { print }' splotch/serve/page/page.html; \
	  printf ')SPLOTCHPAGE"\n'; } > $@.tmp && mv $@.tmp $@
build/obj/splotch/serve/serve_page.o build/san/splotch/serve/serve_page.o: build/gen/serve_page.inc

build/mpi/%.o: %.cc
	@mkdir -p $(dir $@)
	@if [ -z "$(MPICXX)" ]; then echo "no mpicxx: install OpenMPI (make deps MPI=1)"; exit 1; fi
	$(MPICXX) $(CXXFLAGS) -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX $(DEPFLAGS) -c $< -o $@

build/obj/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c $< -o $@

# The projection written once for host and device (splotch/splat/projection.h) gives the same bits
# on both only where neither fuses a multiply and an add into one rounding (g++ does with
# -march=native, nvcc by default): so the pictures drawn from particles kept on the GPU are the
# host's, and the GPU's count of splats in view is the host's. It costs nothing measurable (the
# projection streams memory). The palette's interpolation, the one other place where the two
# compute alike, is fused or not explicitly on both sides (io/palette.h, DeviceView::fused_palette).
build/obj/splotch/stages/geometry.o build/obj/tests/unit/test_geometry.o: CXXFLAGS += -ffp-contract=off
build/san/splotch/stages/geometry.o build/san/tests/unit/test_geometry.o: SAN_FLAGS += -ffp-contract=off
build/obj/cuda/device_particles.o: NVCCFLAGS += -fmad=false

build/libsplotch.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The default build's program; with MPI=1 also build/default/splotch, which the tests compare
# with the MPI build started without a launcher (tests/mpi/test_mpi.cc).
ifeq ($(MPI),1)
bin/splotch: bin/splotch_mpi $(MPI_STAMP)
	cp bin/splotch_mpi $@
DEFAULT_SPLOTCH := build/default/splotch
else
DEFAULT_SPLOTCH := bin/splotch
endif
$(DEFAULT_SPLOTCH): build/obj/splotch/app/main.o build/libsplotch.a $(MPI_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(filter-out $(MPI_STAMP),$^) $(LDLIBS) $(HDF5_LIBS) -o $@

bin/splotch_mpi: $(MPI_OBJ)
	@mkdir -p bin
	$(MPICXX) $(CXXFLAGS) $^ $(LDLIBS) $(HDF5_LIBS) -o $@

# The image reductions of the MPI mode alone (tests/bench/bench_reduce.sh).
bin/splotch_reduce_bench: build/mpi/tools/reduce_bench.o $(filter-out build/obj/splotch/app/main.o,$(MPI_OBJ))
	@mkdir -p bin
	$(MPICXX) $(CXXFLAGS) $^ $(LDLIBS) $(HDF5_LIBS) -o $@

bin/splotch_path: build/obj/tools/splotch_path.o build/libsplotch.a
	@mkdir -p bin
	$(CXX) $(CXXFLAGS) $^ $(LDLIBS) $(HDF5_LIBS) -o $@

build/obj/tests/unit/test_hdf5_reader.o build/obj/tests/end_to_end/test_cli.o build/obj/tests/unit/test_hdf5_table_reader.o \
  build/obj/tests/end_to_end/test_original_parameter_files.o build/obj/tests/end_to_end/test_used_par_round_trip.o: $(HDF5_STAMP)

bin/splotch_serve_bench: build/obj/tools/serve_bench.o
	@mkdir -p bin
	$(CXX) $(CXXFLAGS) $^ $(LDLIBS) -o $@

bin/splotch_interpolate_bench: build/obj/tools/interpolate_bench.o build/libsplotch.a
	@mkdir -p bin
	$(CXX) $(CXXFLAGS) $^ $(LDLIBS) $(HDF5_LIBS) -o $@

bin/splotch_tests: $(TEST_OBJ) build/libsplotch.a
	@mkdir -p bin
	$(CXX) $(CXXFLAGS) $^ $(LDLIBS) $(HDF5_LIBS) -o $@

# Without ARCH and FMA contraction, so that the demo's bytes are the same on every machine.
bin/make_demo: testdata/make_demo.cc
	@mkdir -p bin
	$(CXX) -O2 -std=c++17 -ffp-contract=off -Wall -Wextra $< -o $@

bin/make_snapshot: $(BENCH_SNAPSHOT_SRC)
	@mkdir -p bin
	$(CXX) -O2 -std=c++17 $< -o $@

# The demo: a clustered particle set (raw table, big-endian as the original expects by default),
# rendered with scalar colours (a_eq_e) and with vector colours (absorption and emission apart).
build/demo/demo_particles.bin: bin/make_demo
	@mkdir -p build/demo
	bin/make_demo --out $@
build/demo/demo_vector.bin: bin/make_demo
	@mkdir -p build/demo
	bin/make_demo --out $@ --vector-colour

demo: all python build/demo/demo_particles.bin build/demo/demo_vector.bin
	bin/splotch testdata/demo.par
	bin/splotch testdata/demo_vector.par
	@echo "demo images: build/demo/demo.png build/demo/demo_vector.png"

# The Python module (python/splotch: the package, and its native part _core built here from the
# library's objects with Debian's pybind11 and NumPy): `make python`; the package is then imported
# with PYTHONPATH=python, or installed with `pip install --no-build-isolation .` (pyproject.toml).
# Debian's python3, which has the Debian packages' modules (a python3 of one's own may not).
PYTHON    ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || command -v python3)
PY_EXT    := $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))" 2>/dev/null)
PY_FLAGS  := $(shell $(PYTHON) -c "import sysconfig, pybind11; print('-isystem', sysconfig.get_paths()['include'], '-isystem', pybind11.get_include())" 2>/dev/null)
PY_MODULE := python/splotch/_core$(PY_EXT)
python: $(PY_MODULE) python/splotch/palettes/fire.pal
python/splotch/palettes/fire.pal: $(wildcard testdata/palettes/*.pal)
	@mkdir -p python/splotch/palettes
	cp testdata/palettes/*.pal python/splotch/palettes/
build/obj/python/module/splotch_module.o: CXXFLAGS += $(PY_FLAGS) -fvisibility=hidden
$(PY_MODULE): build/obj/python/module/splotch_module.o build/libsplotch.a
	@if [ -z "$(PY_FLAGS)" ]; then echo "make python: no pybind11 or Python headers for $(PYTHON) (make deps installs them)"; exit 1; fi
	$(CXX) $(CXXFLAGS) -shared $^ $(LDLIBS) $(HDF5_LIBS) -o $@
# The worked notebook (docs/python_notebook.ipynb), run headless as a reader would run it; its
# figures, made by the module, land in build/notebook/ (jupyter-nbconvert, python3-ipykernel,
# python3-matplotlib: make deps).
notebook: python bin/splotch
	@mkdir -p build/notebook
	PATH=$(dir $(PYTHON)):$$PATH PYTHONPATH=$(CURDIR)/python PYDEVD_DISABLE_FILE_VALIDATION=1 jupyter-nbconvert --to notebook --execute \
	  --ExecutePreprocessor.timeout=600 docs/python_notebook.ipynb --output-dir build/notebook
# The module's tests (tests/python, pytest), against bin/splotch.
python-test: python bin/splotch
	PYTHONPATH=python $(PYTHON) -m pytest -q tests/python

# The MPI tests run where mpicxx is found (tests/mpi/test_mpi.cc says when they are skipped). `make
# MPI=1 test` (CI) runs the suite against the MPI build as a user of it runs bin/splotch, and
# compares the default build with it.
test: include-check $(PROGRAMS) bin/splotch_tests $(DEFAULT_SPLOTCH) python
	bin/splotch_tests
	PYTHONPATH=python $(PYTHON) -m pytest -q tests/python
	$(MAKE) --no-print-directory notebook
	@if command -v python3 >/dev/null; then status=0; python3 tests/browser/serve_page_test.py || status=$$?; \
	   [ $$status -eq 0 ] || [ $$status -eq 77 ]; \
	 else echo "browser test SKIPPED: no python3 (make deps BROWSER=1 installs it, with Chromium)" >&2; fi
	@status=0; PYTHONPATH=python $(PYTHON) tests/browser/notebook_explorer_test.py || status=$$?; \
	   [ $$status -eq 0 ] || [ $$status -eq 77 ]

# No include runs upward between the rooms of ARCHITECTURE.md, none in a circle.
include-check:
	tests/include_check.sh

# Every source file laid out as .clang-format says (clang-format: make deps FUZZ=1 installs it);
# `make format` rewrites them so.
FORMAT_SRC = $(wildcard errors/*.h params/*.h params/*.cc io/*.h io/*.cc splotch/*/*.h splotch/*/*.cc cuda/*.h cuda/*.cc cuda/*.cu \
               python/module/*.cc \
               cuda/*.cuh tests/*/*.h tests/*/*.cc tools/*.cc testdata/*.cc \
               splotch/serve/page/*.js)
format-check:
	@command -v clang-format >/dev/null || { echo "format-check: no clang-format (make deps FUZZ=1 installs it)"; exit 1; }
	@clang-format --dry-run --Werror $(FORMAT_SRC) || { echo "format-check: the files above differ from .clang-format: make format rewrites them"; exit 1; }
	@echo "format-check: $(words $(FORMAT_SRC)) files as .clang-format lays them out"
format:
	clang-format -i $(FORMAT_SRC)

# Stored reference images for the end-to-end tests; run only when a change of the picture is
# intended, and say why in the commit.
references: bin/splotch bin/make_demo
	tests/make_references.sh

# The test binary with AddressSanitizer and UndefinedBehaviorSanitizer (no GPU code: the CPU
# stand-in, cuda/no_cuda.cc), of the cases that work in the process itself: tests/unit and
# tests/gpu (whose GPU cases skip). Not tests/end_to_end, which run bin/splotch as a user does (the
# same code, which this run has covered, at a multiple of the time; and pictures compared byte for
# byte with bin/splotch's, which the sanitized build's floating point does not give), nor tests/mpi.
SAN_FLAGS := -std=c++17 -fopenmp -O1 -g $(ARCH) -fno-omit-frame-pointer -fsanitize=address,undefined \
             -fno-sanitize-recover=undefined -Wall -Wextra -Wshadow -I. $(HTTPLIB_FLAGS)
SAN_SRC   := $(filter-out cuda/no_cuda.cc,$(LIB_SRC)) cuda/no_cuda.cc \
             $(wildcard tests/unit/test_*.cc tests/gpu/test_*.cc) tests/support/test_main.cc
SAN_OBJ   := $(SAN_SRC:%.cc=build/san/%.o)
build/san/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(SAN_FLAGS) $(HDF5_FLAGS) $(DEPFLAGS) -c $< -o $@
build/san/tests/unit/test_hdf5_reader.o build/san/tests/unit/test_hdf5_table_reader.o: $(HDF5_STAMP)
bin/splotch_tests_san: $(SAN_OBJ)
	@mkdir -p bin
	$(CXX) $(SAN_FLAGS) $^ -lstb -lz -lcfitsio -lcpp-httplib $(HDF5_LIBS) -o $@
sanitize: bin/splotch_tests_san bin/splotch bin/make_demo
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 bin/splotch_tests_san

# The fuzzing harnesses (tests/fuzz, libFuzzer with clang: make deps FUZZ=1) for FUZZ_SECONDS each.
FUZZ_SECONDS ?= 30
fuzz:
	SECONDS_EACH=$(FUZZ_SECONDS) tests/fuzz/run.sh

bench: $(PROGRAMS) $(DEFAULT_SPLOTCH) bin/make_snapshot $(if $(MPICXX),bin/splotch_reduce_bench)
	tests/bench/bench.sh
	tests/bench/bench_read.sh
	tests/bench/bench_scene.sh
	tests/bench/bench_serve.sh
	SESSION=tests/bench/serve_map_session.txt CASE=map tests/bench/bench_serve.sh
	FORMAT=gadget SESSION=tests/bench/serve_field_session.txt CASE=field tests/bench/bench_serve.sh
	FORMAT=gadget SERIES=2 SESSION=tests/bench/serve_time_session.txt CASE=time tests/bench/bench_serve.sh
	bin/splotch_interpolate_bench
	tests/bench/bench_auto.sh
	tests/bench/bench_maps.sh
	tests/bench/bench_python.sh
	tests/bench/bench_formats.sh
	tests/bench/bench_mpi.sh
	tests/bench/bench_mpi_start.sh
	tests/bench/bench_mpi_gpu.sh
	tests/bench/bench_reduce.sh

clean:
	rm -rf build bin

-include $(LIB_OBJ:.o=.d) build/obj/python/module/splotch_module.d $(TEST_OBJ:.o=.d) $(SAN_OBJ:.o=.d) build/mpi/splotch/mpi/mpi_comm.d build/mpi/tools/reduce_bench.d build/obj/splotch/app/main.d build/obj/tools/splotch_path.d build/obj/tools/serve_bench.d build/obj/tools/interpolate_bench.d
