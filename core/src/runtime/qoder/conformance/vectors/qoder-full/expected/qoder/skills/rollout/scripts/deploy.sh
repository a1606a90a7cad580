#!/bin/sh
echo deploy
