# OpenBench builds an engine by running `make EXE=PATH` in its repository (its wiki's
# requirement for public engines: the default target builds the engine into $(EXE)),
# adding -j and sometimes CC=, CXX= or EVALFILE=. Ferrimax is built by cargo, which
# needs none of those, and embeds its network (src/eval/nets), so they change nothing.
#
#     make                 target/release/ferrimax, copied to ./ferrimax
#     make EXE=/tmp/x      the same, copied to /tmp/x

EXE ?= ferrimax
CARGO ?= cargo
# Where cargo puts its builds: target/, unless the environment says otherwise.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
# The program cargo builds (OpenBench's Windows workers add .exe to EXE themselves).
ifeq ($(OS),Windows_NT)
BINARY := ferrimax.exe
else
BINARY := ferrimax
endif

.DEFAULT_GOAL := all
.PHONY: all

all:
	$(CARGO) build --release
	cp $(TARGET_DIR)/release/$(BINARY) $(EXE)
