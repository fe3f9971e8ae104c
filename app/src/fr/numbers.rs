//! Numbers, amounts, distances and counted words, fr-FR.

/// Between groups of three digits: « 2 635 ».
pub const THOUSANDS: char = '\u{202f}';
/// Between a number and its unit: « 12 km », « 40 € ».
pub const UNIT: char = '\u{a0}';

/// Any whole number the pages show.
pub trait Whole: Copy {
    fn widen(self) -> i128;
}

macro_rules! whole {
    ($($t:ty),*) => {$(
        impl Whole for $t {
            fn widen(self) -> i128 {
                self as i128
            }
        }
    )*};
}
whole!(i8, i16, i32, i64, i128, u8, u16, u32, u64, usize, isize);

/// « 2 635 », « -12 000 », « 7 ».
pub fn int(n: impl Whole) -> String {
    let n = n.widen();
    let digits = n.unsigned_abs().to_string();
    let sign = if n < 0 { "-" } else { "" };
    format!("{sign}{}", group(&digits))
}

fn group(digits: &str) -> String {
    let len = digits.len();
    let mut out = String::with_capacity(len + len / 3 * 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (len - i).is_multiple_of(3) {
            out.push(THOUSANDS);
        }
        out.push(c);
    }
    out
}

/// `x` with exactly `digits` decimals and a decimal comma: « 1,2 »,
/// « 1 234,50 ». A value that is not a number reads « — ».
pub fn decimal(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "—".to_string();
    }
    let fixed = format!("{:.*}", digits, x.abs());
    let (whole, fraction) = fixed.split_once('.').unwrap_or((&fixed, ""));
    // « -0,0 » is not a number anyone writes.
    let negative = x < 0.0 && fixed.chars().any(|c| c.is_ascii_digit() && c != '0');
    let sign = if negative { "-" } else { "" };
    if fraction.is_empty() {
        format!("{sign}{}", group(whole))
    } else {
        format!("{sign}{},{fraction}", group(whole))
    }
}

/// An amount in euros: « 1 234,50 € »; a whole amount drops its cents,
/// « 1 500 € », as the team writes budgets.
pub fn euros(x: f64) -> String {
    let cents = (x * 100.0).round();
    if cents % 100.0 == 0.0 {
        format!("{}{UNIT}€", decimal(x, 0))
    } else {
        format!("{}{UNIT}€", decimal(x, 2))
    }
}

/// A distance given in metres: « 850 m » under a kilometre (to the ten
/// metres), « 1,2 km » under ten (one decimal, « 3 km » when it is whole),
/// « 12 km » beyond.
pub fn distance_m(m: f64) -> String {
    if !m.is_finite() {
        return "—".to_string();
    }
    let m = m.abs();
    let tens = (m / 10.0).round() * 10.0;
    if tens < 1000.0 {
        return format!("{}{UNIT}m", int(tens as i64));
    }
    let tenths_km = (m / 100.0).round() / 10.0;
    if tenths_km < 10.0 {
        if tenths_km.fract() == 0.0 {
            format!("{}{UNIT}km", int(tenths_km as i64))
        } else {
            format!("{}{UNIT}km", decimal(tenths_km, 1))
        }
    } else {
        format!("{}{UNIT}km", int((m / 1000.0).round() as i64))
    }
}

/// A distance given in kilometres (see [`distance_m`]).
pub fn distance_km(km: f64) -> String {
    distance_m(km * 1000.0)
}

/// The word agreeing with `n`: French counts 0 and 1 in the singular
/// (« 0 lieu », « 1 déplacée », « 2 déplacées »).
pub fn agree<'a>(n: impl Whole, singular: &'a str, plural: &'a str) -> &'a str {
    if n.widen().abs() <= 1 {
        singular
    } else {
        plural
    }
}

/// The count and its word: « 1 lieu », « 2 635 lieux ».
pub fn plural(n: impl Whole, singular: &str, plural: &str) -> String {
    format!("{} {}", int(n), agree(n, singular, plural))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: String) -> String {
        s.replace([THOUSANDS, UNIT], " ")
    }

    #[test]
    fn whole_numbers_group_by_three() {
        assert_eq!(int(0), "0");
        assert_eq!(int(999), "999");
        assert_eq!(int(1000), "1\u{202f}000");
        assert_eq!(plain(int(2635)), "2 635");
        assert_eq!(plain(int(-1_234_567_i64)), "-1 234 567");
        assert_eq!(plain(int(i64::MIN)), "-9 223 372 036 854 775 808");
        assert_eq!(plain(int(u64::MAX)), "18 446 744 073 709 551 615");
        assert_eq!(plain(int(70_000_usize)), "70 000");
    }

    #[test]
    fn decimals_use_a_comma() {
        assert_eq!(decimal(1.24, 1), "1,2");
        assert_eq!(decimal(1.26, 1), "1,3");
        assert_eq!(plain(decimal(1234.5, 2)), "1 234,50");
        assert_eq!(decimal(-0.01, 1), "0,0");
        assert_eq!(decimal(-2.5, 1), "-2,5");
        assert_eq!(decimal(3.0, 0), "3");
        assert_eq!(decimal(f64::NAN, 1), "—");
    }

    #[test]
    fn euros_keep_cents_only_when_there_are() {
        assert_eq!(plain(euros(1234.5)), "1 234,50 €");
        assert_eq!(plain(euros(15_000.0)), "15 000 €");
        assert_eq!(plain(euros(0.004)), "0 €");
        assert!(euros(40.0).ends_with("\u{a0}€"));
    }

    #[test]
    fn distances_round_to_what_a_person_reads() {
        assert_eq!(plain(distance_m(0.0)), "0 m");
        assert_eq!(plain(distance_m(4.0)), "0 m");
        assert_eq!(plain(distance_m(847.0)), "850 m");
        assert_eq!(plain(distance_m(994.0)), "990 m");
        assert_eq!(plain(distance_m(996.0)), "1 km", "never « 1000 m »");
        assert_eq!(plain(distance_m(1000.0)), "1 km", "never « 1,0 km »");
        assert_eq!(plain(distance_m(1_234.0)), "1,2 km");
        assert_eq!(plain(distance_m(9_960.0)), "10 km");
        assert_eq!(plain(distance_m(12_400.0)), "12 km");
        assert_eq!(plain(distance_m(1_234_000.0)), "1 234 km");
        assert_eq!(plain(distance_km(2.5)), "2,5 km");
        assert_eq!(distance_m(f64::INFINITY), "—");
    }

    #[test]
    fn counted_words_agree() {
        assert_eq!(plural(0, "lieu", "lieux"), "0 lieu");
        assert_eq!(plural(1, "lieu", "lieux"), "1 lieu");
        assert_eq!(plural(2, "lieu", "lieux"), "2 lieux");
        assert_eq!(plain(plural(2635_u32, "lieu", "lieux")), "2 635 lieux");
        assert_eq!(agree(1, "déplacée", "déplacées"), "déplacée");
        assert_eq!(agree(3_usize, "déplacée", "déplacées"), "déplacées");
        assert_eq!(agree(-1, "degré", "degrés"), "degré");
    }
}
