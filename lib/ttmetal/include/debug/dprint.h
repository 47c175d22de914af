// debug/dprint.h - tt-metal's DPRINT at its older path.
#pragma once
#include "api/debug/dprint.h"
