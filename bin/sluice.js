#!/usr/bin/env node
"use strict";
require("../dist/kernel/cli").main(process.argv.slice(2));
