//! Amounts: head counts, ranges, tables, vague amounts, budgets, and the
//! numbers that are none of them (dates, hours, durations).

use super::*;
