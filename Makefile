# SPDX-License-Identifier: GPL-2.0
# wqport: carry legacy deferred-work drivers onto modern kernels.
#
#   make              build wqcompat.ko, the test modules and the legacy samples
#                     against Debian's stock kernel, 6.1 (KERNEL=6.12, KERNEL=debug,
#                     KERNEL=debug-kcsan, or KDIR=tree)
#   make port         the main job: convert, build and run every legacy sample,
#                     one table per kernel (KERNEL="6.1 6.12"; DRIVER=path: the
#                     same for your driver, SCRIPT=its scenario)
#   make check        every test suite; ends with "N passed, N failed, N skipped"
#   make check-kcsan  the shim's KUnit suites on the KCSAN debug kernel
#   make check-tests  mutation testing of the suite: every mutant of
#                     tests/mutants/compat and tests/mutants/convert must be
#                     killed (make check runs two)
#   make fuzz         the converter on mutants of legacy drivers (tests/fuzz):
#                     N=200 of them from SEED=1; each finding prints the
#                     command that replays it (make check runs a slice);
#                     QEMU=6.1 also runs the mutants of the samples three
#                     ways in that kernel (about a minute each)
#   make soak         the shim's soak: 1,000,000 cycles from 8 producers,
#                     handlers flushing queues and a CPU going offline and back
#                     (CYCLES=N, KERNEL=...); then 1,000 unloads of a driver
#                     with work pending (UNLOADS=N)
#   make lint         W=1 and sparse builds, zero warnings, every kernel
#   make bench        shim overhead (on both stock kernels), conversion speed,
#                     test cycle time (TREE=DIR[:INCLUDE]: a whole tree too)
#   make debug-kernel build the debug kernel into ~/.cache/wqport (VARIANT=kcsan:
#                     the KCSAN one)
#   make install      PREFIX=/usr/local: wqport, semantic patches, headers, man
#                     pages, bash completion, the shim's DKMS source
#   make uninstall    removes exactly what make install put there
#   make deb          the Debian packages wqport and wqcompat-dkms, into
#                     build/deb, lintian-clean (nothing is installed)
#   make docs         docs/api-reference.rst from the kernel-doc comments
#   make clean
#
# The modules themselves are described to Kbuild by ./Kbuild.

KERNEL ?= stock
ifneq ($(KDIR),)
KERNEL := $(KDIR)
endif
VARIANT ?= kasan
PREFIX ?= /usr/local

# Install the Debian packages once, when a tool is missing.
DEPS = @scripts/install-deps --check 2>/dev/null || scripts/install-deps

.PHONY: all modules port check check-kcsan check-tests fuzz soak trace-soak lint bench debug-kernel install uninstall deb docs clean deps

all: modules

deps:
	$(DEPS)

modules:
	$(DEPS)
	$(foreach k,$(KERNEL),scripts/kbuild --kernel $(k) &&) true

debug-kernel:
	$(DEPS)
	scripts/build-debug-kernel --variant $(VARIANT)

lint:
	$(DEPS)
	tests/lint 6.1 6.12 debug
	tests/style

# The kernels before the suites: the debug kernel's build takes every core,
# and the suites run side by side (tests/suites' lanes).
check:
	$(DEPS)
	scripts/fetch-kernel 6.1 >/dev/null
	scripts/fetch-kernel 6.12 >/dev/null
	scripts/build-debug-kernel --variant kasan >/dev/null
	scripts/check

check-kcsan:
	$(DEPS)
	scripts/check --suites tests/suites-kcsan

check-tests:
	$(DEPS)
	scripts/fetch-kernel 6.1 >/dev/null
	scripts/check --suites tests/suites-mutants

N ?= 200
SEED ?= 1
fuzz:
	$(DEPS)
	scripts/fetch-kernel 6.1 >/dev/null
	scripts/fetch-kernel 6.12 >/dev/null
	tests/fuzz/fuzz --seed $(SEED) -n $(N) $(if $(QEMU),--qemu $(QEMU))

soak:
	$(DEPS)
	$(foreach k,$(KERNEL),scripts/soak --kernel $(k) $(if $(CYCLES),--cycles $(CYCLES)) $(if $(UNLOADS),--unloads $(UNLOADS)) &&) true

# wqport compare's negative controls, RUNS times on each kernel
RUNS ?= 20
trace-soak:
	$(DEPS)
	scripts/fetch-kernel 6.1 >/dev/null
	scripts/fetch-kernel 6.12 >/dev/null
	scripts/build-debug-kernel --variant kasan >/dev/null
	tests/trace/soak --runs $(RUNS) $(or $(TRACE_KERNELS),6.1 6.12 debug)

port:
	$(DEPS)
	scripts/port $(foreach k,$(KERNEL),--kernel $(k)) $(if $(DRIVER),--driver $(DRIVER)) \
		$(if $(SCRIPT),--script $(SCRIPT))

bench:
	$(DEPS)
	scripts/bench $(foreach t,$(TREE),--tree $(t))

install:
	$(DEPS)
	scripts/install --prefix $(PREFIX) $(if $(DESTDIR),--destdir $(DESTDIR))

uninstall:
	scripts/install --uninstall --prefix $(PREFIX) $(if $(DESTDIR),--destdir $(DESTDIR))

deb:
	$(DEPS)
	scripts/deb

docs:
	$(DEPS)
	tests/kerneldoc --rst docs/api-reference.rst

clean:
	rm -rf build
