//! JSON Lines: the one line splitter of every JSONL reader (render input, resume,
//! score). Lines are numbered from 1, blank lines are skipped, a trailing `\r` is
//! dropped, and a line is UTF-8 checked and bounded in length.

mod bounded;

pub use bounded::parse_value;

use std::io::{BufRead, Read};

/// Longest accepted input line in bytes.
pub(crate) const MAX_LINE_BYTES: usize = 64 << 20;

/// Lines longer than this take the read buffer as their text instead of a copy.
const OWN_LINE_BYTES: usize = 1 << 20;

/// One input line, or why it could not be read as text.
pub(crate) struct Line {
    /// 1-based line number.
    pub number: u64,
    /// Byte offset of the line's start in the input (where `Lines::starting_at`
    /// reads it again).
    pub offset: u64,
    pub text: Result<String, LineReadError>,
}

/// Why a line could not be read as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LineReadError {
    /// Not valid UTF-8; `byte` is the 1-based offset of the first bad byte.
    #[error("line is not valid UTF-8 (byte {byte})")]
    NotUtf8 { byte: usize },
    /// Longer than `MAX_LINE_BYTES`.
    #[error("line longer than {max} bytes")]
    TooLong { max: usize },
}

/// Whether a line holds nothing but ASCII white space.
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// Non-blank lines of an in-memory JSONL text with their 1-based numbers. A line
/// longer than `max` bytes is [`LineReadError::TooLong`] (blank or not: its bytes are
/// not looked at), as [`Lines`] reads it.
pub(crate) fn split(
    text: &[u8],
    max: usize,
) -> impl Iterator<Item = (usize, Result<&[u8], LineReadError>)> {
    text.split(|b| *b == b'\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix(b"\r").unwrap_or(l)))
        .filter(move |(_, l)| l.len() > max || !is_blank(l))
        .map(move |(n, l)| match l.len() > max {
            true => (n, Err(LineReadError::TooLong { max })),
            false => (n, Ok(l)),
        })
}

/// Counts the non-blank lines of `reader` in bounded memory (a line is never held whole).
pub(crate) fn count(mut reader: impl BufRead) -> std::io::Result<u64> {
    let mut n = 0;
    let mut blank = true;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(n + u64::from(!blank));
        }
        for &b in buf {
            if b == b'\n' {
                n += u64::from(!blank);
                blank = true;
            } else if !b.is_ascii_whitespace() {
                blank = false;
            }
        }
        let len = buf.len();
        reader.consume(len);
    }
}

/// Yields non-blank lines of `reader` in order; I/O failures end the iteration with an error.
pub(crate) struct Lines<R> {
    reader: R,
    number: u64,
    /// Bytes consumed so far (the next line's offset).
    pos: u64,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(reader: R) -> Self {
        Lines::starting_at(reader, 1, 0)
    }

    /// Lines of a reader already positioned at byte `offset` of its input, where
    /// line `number` starts (a line read again from its [`Line::offset`]).
    pub(crate) fn starting_at(reader: R, number: u64, offset: u64) -> Self {
        Lines {
            reader,
            number: number.saturating_sub(1),
            pos: offset,
            buf: Vec::new(),
        }
    }

    /// The next line; `None` at the end of input.
    pub(crate) fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        self.read_line()
    }

    /// Up to `n` more lines; an empty vector at the end of input.
    pub(crate) fn next_chunk(&mut self, n: usize) -> std::io::Result<Vec<Line>> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            match self.read_line()? {
                Some(line) => out.push(line),
                None => break,
            }
        }
        Ok(out)
    }

    fn read_line(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            self.buf.clear();
            let offset = self.pos;
            let read = (&mut self.reader)
                .take(MAX_LINE_BYTES as u64 + 1)
                .read_until(b'\n', &mut self.buf)?;
            if read == 0 {
                return Ok(None);
            }
            self.pos += read as u64;
            self.number += 1;
            let complete = self.buf.last() == Some(&b'\n');
            if !complete && self.buf.len() > MAX_LINE_BYTES {
                // Skip the rest of the over-long line.
                let mut sink = Vec::new();
                loop {
                    sink.clear();
                    let n = (&mut self.reader)
                        .take(1 << 20)
                        .read_until(b'\n', &mut sink)?;
                    self.pos += n as u64;
                    if n == 0 || sink.last() == Some(&b'\n') {
                        break;
                    }
                }
                return Ok(Some(Line {
                    number: self.number,
                    offset,
                    text: Err(LineReadError::TooLong {
                        max: MAX_LINE_BYTES,
                    }),
                }));
            }
            let bytes = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            // A UTF-8 byte-order mark (some editors write one) is not part of the JSON.
            let bytes = match self.number {
                1 => bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes),
                _ => bytes,
            };
            if is_blank(bytes) {
                continue;
            }
            let not_utf8 = |e: std::str::Utf8Error| LineReadError::NotUtf8 {
                byte: e.valid_up_to() + 1,
            };
            // A long line hands over the buffer itself rather than a copy of it: a
            // 50 MB line is then held once, not twice, while it is parsed.
            let text = if bytes.len() > OWN_LINE_BYTES {
                let start = bytes.as_ptr() as usize - self.buf.as_ptr() as usize;
                let end = start + bytes.len();
                let mut owned = std::mem::take(&mut self.buf);
                owned.truncate(end);
                owned.drain(..start);
                String::from_utf8(owned).map_err(|e| not_utf8(e.utf8_error()))
            } else {
                std::str::from_utf8(bytes)
                    .map(str::to_string)
                    .map_err(not_utf8)
            };
            return Ok(Some(Line {
                number: self.number,
                offset,
                text,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lines_and_skips_blank_ones() {
        let mut lines = Lines::new(&b"a\n\n  \r\nb\r\nc"[..]);
        let chunk = lines.next_chunk(10).unwrap();
        let got: Vec<(u64, String)> = chunk
            .into_iter()
            .map(|l| (l.number, l.text.unwrap()))
            .collect();
        assert_eq!(got, vec![(1, "a".into()), (4, "b".into()), (5, "c".into())]);
        assert!(lines.next_chunk(10).unwrap().is_empty());
    }

    #[test]
    fn invalid_utf8_is_a_line_error() {
        let mut lines = Lines::new(&b"ok\n\xff\xfe\nok2\n"[..]);
        let chunk = lines.next_chunk(10).unwrap();
        assert_eq!(chunk.len(), 3);
        assert_eq!(
            chunk[1].text.as_ref().unwrap_err(),
            &LineReadError::NotUtf8 { byte: 1 }
        );
        assert_eq!(chunk[2].text.as_deref(), Ok("ok2"));
    }

    #[test]
    fn split_and_count_agree_with_the_streaming_reader() {
        let text = b"a\n\n  \r\nb\r\nc";
        let split: Vec<(usize, &[u8])> = split(text, MAX_LINE_BYTES)
            .map(|(n, l)| (n, l.unwrap()))
            .collect();
        assert_eq!(split, vec![(1, &b"a"[..]), (4, b"b"), (5, b"c")]);
        assert_eq!(count(&text[..]).unwrap(), 3);
        assert_eq!(count(&b"x\n \n"[..]).unwrap(), 1);
        assert_eq!(count(&b""[..]).unwrap(), 0);
    }

    #[test]
    fn split_bounds_each_line() {
        let text = b"ok\n0123456789\n          \nfine\r\n";
        let got: Vec<(usize, Result<&[u8], LineReadError>)> = split(text, 5).collect();
        let too_long = Err(LineReadError::TooLong { max: 5 });
        assert_eq!(
            got,
            vec![
                (1, Ok(&b"ok"[..])),
                (2, too_long),
                (3, too_long),
                (4, Ok(b"fine"))
            ]
        );
    }

    #[test]
    fn a_byte_order_mark_on_the_first_line_is_dropped() {
        let mut lines = Lines::new("\u{feff}{}\n\u{feff}{}\n".as_bytes());
        let chunk = lines.next_chunk(10).unwrap();
        assert_eq!(chunk[0].text.as_deref(), Ok("{}"));
        assert_eq!(chunk[1].text.as_deref(), Ok("\u{feff}{}"));
    }

    #[test]
    fn a_long_line_reads_the_same_as_a_short_one() {
        let long = "x".repeat(OWN_LINE_BYTES + 7);
        let mut bad = format!("\u{feff}{long}\r\nok\n{long}?\n").into_bytes();
        let last = bad.len() - 2;
        bad[last] = 0xff;
        let mut lines = Lines::new(&bad[..]);
        let chunk = lines.next_chunk(10).unwrap();
        assert_eq!(chunk[0].text.as_deref(), Ok(long.as_str()));
        assert_eq!(chunk[1].text.as_deref(), Ok("ok"));
        assert_eq!(
            chunk[2].text.as_ref().unwrap_err(),
            &LineReadError::NotUtf8 {
                byte: long.len() + 1
            }
        );
    }

    #[test]
    fn each_line_can_be_read_again_from_its_offset() {
        let data = "\u{feff}a\n\n  \r\nbb\r\nccc";
        let mut lines = Lines::new(data.as_bytes());
        let all = lines.next_chunk(10).unwrap();
        let at: Vec<(u64, u64)> = all.iter().map(|l| (l.number, l.offset)).collect();
        assert_eq!(at, vec![(1, 0), (4, 10), (5, 14)]);
        for l in &all {
            let rest = &data.as_bytes()[l.offset as usize..];
            let again = Lines::starting_at(rest, l.number, l.offset)
                .next_line()
                .unwrap()
                .unwrap();
            assert_eq!((again.number, again.offset), (l.number, l.offset));
            assert_eq!(again.text, l.text);
        }
    }

    #[test]
    fn chunks_are_bounded() {
        let data = "x\n".repeat(10);
        let mut lines = Lines::new(data.as_bytes());
        assert_eq!(lines.next_chunk(4).unwrap().len(), 4);
        assert_eq!(lines.next_chunk(4).unwrap().len(), 4);
        assert_eq!(lines.next_chunk(4).unwrap().len(), 2);
    }
}
