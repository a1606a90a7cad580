#!/bin/sh
echo ship
