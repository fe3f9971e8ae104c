//! `COPY … FROM STDIN` in PostgreSQL's text format: a row encoder that
//! escapes values, and a sender that streams rows in ~1 MiB chunks.

use anyhow::Context as _;
use indicatif::ProgressBar;
use sqlx::PgConnection;

use crate::model::Stamp;

/// Rows are flushed to the server whenever the buffer passes this size.
const CHUNK_BYTES: usize = 1 << 20;

/// One row being encoded; columns are written in the COPY column order.
pub struct Row<'a> {
    buf: &'a mut String,
    first: bool,
}

impl Row<'_> {
    fn sep(&mut self) {
        if !self.first {
            self.buf.push('\t');
        }
        self.first = false;
    }

    fn escaped(&mut self, text: &str) {
        for c in text.chars() {
            match c {
                '\\' => self.buf.push_str("\\\\"),
                '\t' => self.buf.push_str("\\t"),
                '\n' => self.buf.push_str("\\n"),
                '\r' => self.buf.push_str("\\r"),
                c => self.buf.push(c),
            }
        }
    }

    pub fn null(&mut self) -> &mut Self {
        self.sep();
        self.buf.push_str("\\N");
        self
    }

    /// Integers and floats: Rust's `Display` is already PostgreSQL-readable
    /// (shortest round-trip form for floats; the data holds no NaN).
    pub fn num(&mut self, value: impl std::fmt::Display) -> &mut Self {
        use std::fmt::Write;
        self.sep();
        let _ = write!(self.buf, "{value}");
        self
    }

    pub fn opt_num(&mut self, value: Option<impl std::fmt::Display>) -> &mut Self {
        match value {
            Some(v) => self.num(v),
            None => self.null(),
        }
    }

    pub fn text(&mut self, value: &str) -> &mut Self {
        self.sep();
        self.escaped(value);
        self
    }

    pub fn opt_text(&mut self, value: Option<&str>) -> &mut Self {
        match value {
            Some(v) => self.text(v),
            None => self.null(),
        }
    }

    pub fn boolean(&mut self, value: bool) -> &mut Self {
        self.num(if value { 't' } else { 'f' })
    }

    /// A `text[]` literal: every element quoted, `"` and `\` escaped.
    pub fn text_array<S: AsRef<str>>(&mut self, items: &[S]) -> &mut Self {
        let mut literal = String::from("{");
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                literal.push(',');
            }
            literal.push('"');
            for c in item.as_ref().chars() {
                if c == '"' || c == '\\' {
                    literal.push('\\');
                }
                literal.push(c);
            }
            literal.push('"');
        }
        literal.push('}');
        self.text(&literal)
    }

    /// A UTC timestamp, computed without the clock or a time-zone database.
    pub fn stamp(&mut self, stamp: Stamp) -> &mut Self {
        let (y, m, d) = civil_from_days(stamp.day());
        let secs = stamp.0.rem_euclid(86_400);
        let text = format!(
            "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}+00",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        );
        self.text(&text)
    }

    pub fn opt_stamp(&mut self, stamp: Option<Stamp>) -> &mut Self {
        match stamp {
            Some(s) => self.stamp(s),
            None => self.null(),
        }
    }

    /// A `date` from days since the Unix epoch.
    pub fn date(&mut self, day: i64) -> &mut Self {
        let (y, m, d) = civil_from_days(day);
        self.text(&format!("{y:04}-{m:02}-{d:02}"))
    }

    pub fn opt_date(&mut self, day: Option<i64>) -> &mut Self {
        match day {
            Some(d) => self.date(d),
            None => self.null(),
        }
    }
}

/// Proleptic Gregorian (year, month, day) of a day count since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Streams `rows` into `table (columns)` and checks the server's row count.
pub async fn copy_in<T>(
    conn: &mut PgConnection,
    table: &str,
    columns: &str,
    rows: &[T],
    bar: &ProgressBar,
    encode: impl Fn(&mut Row<'_>, &T),
) -> anyhow::Result<()> {
    bar.set_message(table.to_string());
    let started = std::time::Instant::now();
    let statement = format!("COPY {table} ({columns}) FROM STDIN");
    let mut copy = conn
        .copy_in_raw(&statement)
        .await
        .with_context(|| format!("starting COPY into {table}"))?;
    let mut buf = String::with_capacity(CHUNK_BYTES + 4096);
    let mut pending = 0u64;
    for item in rows {
        let mut row = Row {
            buf: &mut buf,
            first: true,
        };
        encode(&mut row, item);
        buf.push('\n');
        pending += 1;
        if buf.len() >= CHUNK_BYTES {
            copy.send(buf.as_bytes())
                .await
                .with_context(|| format!("sending rows of {table}"))?;
            buf.clear();
            bar.inc(pending);
            pending = 0;
        }
    }
    if !buf.is_empty() {
        copy.send(buf.as_bytes())
            .await
            .with_context(|| format!("sending rows of {table}"))?;
    }
    let written = copy
        .finish()
        .await
        .with_context(|| format!("COPY into {table}"))?;
    bar.inc(pending);
    anyhow::ensure!(
        written == rows.len() as u64,
        "COPY into {table} wrote {written} rows of {}",
        rows.len()
    );
    let duration_ms = started.elapsed().as_millis() as u64;
    tracing::debug!(table, rows = written, duration_ms, "demo rows copied");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(f: impl Fn(&mut Row<'_>)) -> String {
        let mut buf = String::new();
        f(&mut Row {
            buf: &mut buf,
            first: true,
        });
        buf
    }

    #[test]
    fn escaping() {
        assert_eq!(
            encode(|r| {
                r.text("a\tb\\c\nd").null().num(3);
            }),
            "a\\tb\\\\c\\nd\t\\N\t3"
        );
        assert_eq!(
            encode(|r| {
                r.text_array(&["x", "y \"z\""]);
            }),
            "{\"x\",\"y \\\\\"z\\\\\"\"}"
        );
    }

    #[test]
    fn calendar() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_458), (2026, 1, 5));
        assert_eq!(
            encode(|r| {
                r.stamp(crate::model::BASE.plus_minutes(61));
            }),
            "2026-01-05 01:01:00+00"
        );
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
    }
}
