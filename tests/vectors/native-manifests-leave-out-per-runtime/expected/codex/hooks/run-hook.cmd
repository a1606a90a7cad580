#!/usr/bin/env bash
echo "session started: $1"
