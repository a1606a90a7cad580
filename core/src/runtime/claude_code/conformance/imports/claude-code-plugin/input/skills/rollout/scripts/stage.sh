#!/bin/sh
echo stage "$1"
