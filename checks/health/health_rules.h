#pragma once
// Hangs and errors: communicators whose init never finished (ND1100) and every
// WARN NCCL or the framework printed, explained (ND3120).
// Each rule is declared and defined in its own .cpp; its factory is listed
// here, in ID order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_init_incomplete();  // ND1100
std::unique_ptr<Rule> make_process_crashed();  // ND1101
std::unique_ptr<Rule> make_nccl_warning();  // ND3120

}  // namespace nd
