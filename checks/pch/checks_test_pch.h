// Precompiled for every test of checks_test: doctest and the fixtures nearly
// all of them include, parsed once per build instead of once per test file.
#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "checks/node_fixture.h"
#include "src/model/model_fixture.h"
