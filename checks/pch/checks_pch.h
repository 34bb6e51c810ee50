// Precompiled for every rule of nd_checks: the headers nearly all of them
// include, parsed once per build instead of once per rule.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "checks/rule.h"
#include "src/model/job_model.h"
