//! A stable fingerprint of a dataset (FNV-1a over its `Debug` rendering),
//! to prove that the same seed gives byte-identical data.

use std::fmt::Write;

use super::model::Dataset;

struct Fnv(u64);

impl Write for Fnv {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for byte in s.bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}

/// 16 hex digits; equal for equal datasets on any machine.
pub fn digest(data: &Dataset) -> String {
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    // Writing into the hasher cannot fail.
    let _ = write!(hasher, "{data:?}");
    format!("{:016x}", hasher.0)
}
