#!/bin/sh
git status --short
