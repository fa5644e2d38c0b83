# SPDX-License-Identifier: GPL-2.0
# wqport: carry legacy deferred-work drivers onto modern kernels.
#
#   make              build wqcompat.ko, the test modules and the legacy samples
#                     against the stock Debian kernel (KERNEL=debug, or KDIR=tree)
#   make port         the main job: convert, build and run every legacy sample
#                     (DRIVER=path: the same for your driver)
#   make check        every test suite; ends with "N passed, N failed, N skipped"
#   make lint         W=1 and sparse (C=2) builds, zero warnings, both kernels
#   make bench        shim overhead, conversion speed, test cycle time
#   make debug-kernel build the debug kernel into ~/.cache/wqport
#   make install      PREFIX=/usr/local: wqport, semantic patches, headers
#   make docs         docs/api-reference.rst from the kernel-doc comments
#   make clean
#
# The modules themselves are described to Kbuild by ./Kbuild.

KERNEL ?= stock
ifneq ($(KDIR),)
KERNEL := $(KDIR)
endif
PREFIX ?= /usr/local

# Install the Debian packages once, when a tool is missing.
DEPS = @scripts/install-deps --check 2>/dev/null || scripts/install-deps

.PHONY: all modules port check lint bench debug-kernel install docs clean deps

all: modules

deps:
	$(DEPS)

modules:
	$(DEPS)
	scripts/kbuild --kernel $(KERNEL)

debug-kernel:
	$(DEPS)
	scripts/build-debug-kernel

lint:
	$(DEPS)
	tests/lint stock debug

check:
	$(DEPS)
	scripts/check

port:
	$(DEPS)
	scripts/port $(if $(DRIVER),--driver $(DRIVER))

bench:
	$(DEPS)
	scripts/bench

install:
	scripts/install --prefix $(PREFIX) $(if $(DESTDIR),--destdir $(DESTDIR))

docs:
	$(DEPS)
	tests/kerneldoc --rst docs/api-reference.rst

clean:
	rm -rf build
