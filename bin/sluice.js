#!/usr/bin/env -S node --max-semi-space-size=64
"use strict";
// The first line gives V8 a young generation of 2 × 64 MiB (Node's default: 2 × 16 MiB). A stream thread allocates a
// few hundred bytes per record, and a slice's outputs live until they are sent: with the default the scavenges that
// copy them took 18 % of a stateless topology's main thread. bench/runtime runs with this line's flags.
require("../dist/kernel/cli").main(process.argv.slice(2));
