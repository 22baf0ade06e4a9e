//! Reading a VLMEvalKit `.xlsx` result with bounded memory.
//!
//! An `.xlsx` is a zip of XML parts, and a few MB of zip can inflate to gigabytes (a
//! "zip bomb": one 3 GB cell in a 3 MB file). Before calamine parses anything,
//! [`check`] reads the zip's directory and refuses the workbook when its parts
//! declare more than [`MAX_XLSX_BYTES`] uncompressed in total, or a part larger than
//! 1 MiB expands more than [`MAX_XLSX_RATIO`]:1; then it inflates every part through a
//! reader that stops one byte past the size the part declares, so a header that lies
//! about the size is caught too. Only then is the first sheet read, cell by cell
//! (calamine's cell reader: no dense grid is built, so a cell addressed at
//! `XFD1048576` costs nothing), keeping only the columns scored.

use super::error::{EXPECTED, ScoreError};
use super::table::{Columns, TableRow};
use std::io::{Cursor, Read};

/// Most bytes the parts of a VLMEvalKit `.xlsx` may hold uncompressed, all together:
/// 256 MiB. A result table of 100,000 rows with 2 KB outputs is about 200 MB of XML
/// and shared strings; a larger one can be scored as `.tsv` or `.csv`.
pub(crate) const MAX_XLSX_BYTES: u64 = 256 << 20;

/// Highest compression ratio accepted for a part larger than 1 MiB uncompressed:
/// 100:1. Spreadsheet XML compresses about 5–20:1; deflate's limit, which a bomb
/// approaches, is about 1,000:1.
pub(crate) const MAX_XLSX_RATIO: u64 = 100;

/// The bounds [`check`] applies (lowered in tests).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub total: u64,
    pub ratio: u64,
    /// Parts up to this size are not held to `ratio` (tiny parts compress oddly).
    pub ratio_floor: u64,
}

impl Limits {
    pub(super) const DEFAULT: Limits = Limits {
        total: MAX_XLSX_BYTES,
        ratio: MAX_XLSX_RATIO,
        ratio_floor: 1 << 20,
    };
}

/// Refuses a workbook whose parts are too large, expand too much, or inflate past
/// the size they declare; the error names the file, the part and the bound.
pub(crate) fn check(bytes: &[u8], name: &str, limits: &Limits) -> Result<(), ScoreError> {
    let bad = |message: String| ScoreError::Predictions {
        file: name.to_string(),
        message,
    };
    let unreadable = |e: zip::result::ZipError| bad(format!("not a readable .xlsx: {e}"));
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(unreadable)?;
    let mut total = 0u64;
    for i in 0..zip.len() {
        let part = zip.by_index_raw(i).map_err(unreadable)?;
        let (size, packed) = (part.size(), part.compressed_size());
        total = total.saturating_add(size);
        if total > limits.total {
            return Err(bad(format!(
                "part {} declares {size} bytes uncompressed, which brings the workbook \
                 to {total} bytes, over the {}-byte bound on an .xlsx that score reads; \
                 save the results as .tsv or .csv instead",
                part.name(),
                limits.total
            )));
        }
        if size > limits.ratio_floor && size / packed.max(1) > limits.ratio {
            return Err(bad(format!(
                "part {} expands from {packed} to {size} bytes, more than {}:1: refused \
                 as a zip bomb (spreadsheet XML compresses about 5-20:1)",
                part.name(),
                limits.ratio
            )));
        }
    }
    // The sizes above are what the zip says; inflate each part to check them.
    for i in 0..zip.len() {
        let mut part = zip.by_index(i).map_err(unreadable)?;
        let (size, part_name) = (part.size(), part.name().to_string());
        let read = std::io::copy(
            &mut (&mut part).take(size.saturating_add(1)),
            &mut std::io::sink(),
        )
        .map_err(|e| bad(format!("not a readable .xlsx: part {part_name}: {e}")))?;
        if read > size {
            return Err(bad(format!(
                "part {part_name} inflates past the {size} bytes its header declares: \
                 refused (a corrupt or crafted workbook)"
            )));
        }
    }
    Ok(())
}

/// The first sheet's rows, the header first ([`check`]ed against `limits` before).
pub(crate) fn table(
    bytes: &[u8],
    name: &str,
    limits: &Limits,
) -> Result<Vec<TableRow>, ScoreError> {
    use calamine::Reader;
    let bad = |message: String| ScoreError::Predictions {
        file: name.to_string(),
        message,
    };
    check(bytes, name, limits)?;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes))
        .map_err(|e| bad(format!("not a readable .xlsx: {e}")))?;
    let sheet = book
        .sheet_names()
        .into_iter()
        .next()
        .ok_or_else(|| bad("the workbook has no sheet".into()))?;
    let mut cells = book
        .worksheet_cells_reader(&sheet)
        .map_err(|e| bad(e.to_string()))?;
    let mut rows = Rows::default();
    while let Some(cell) = cells.next_cell().map_err(|e| bad(e.to_string()))? {
        let (row, col) = cell.get_position();
        let value = calamine::Data::from(cell.get_value().clone());
        rows.push(row, col, cell_text(&value)).map_err(bad)?;
    }
    rows.flush().map_err(bad)?;
    if rows.columns.is_none() {
        return Err(bad(format!("the file is empty; expected {EXPECTED}")));
    }
    Ok(rows.out)
}

/// Groups streamed cells into rows: the first row with a value is the header, later
/// rows keep only the columns read.
#[derive(Default)]
struct Rows {
    columns: Option<Columns>,
    /// The row being gathered (0-based) and its (column, text) cells.
    current: Option<(u32, Vec<(u32, String)>)>,
    out: Vec<TableRow>,
}

impl Rows {
    fn push(&mut self, row: u32, col: u32, text: Option<String>) -> Result<(), String> {
        let Some(text) = text else { return Ok(()) };
        if self.current.as_ref().is_some_and(|(r, _)| *r != row) {
            self.flush()?;
        }
        let (_, cells) = self.current.get_or_insert_with(|| (row, Vec::new()));
        let keep = self
            .columns
            .is_none_or(|c| c.wanted(usize::try_from(col).unwrap_or(usize::MAX)));
        if keep {
            cells.push((col, text));
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), String> {
        let Some((row, cells)) = self.current.take() else {
            return Ok(());
        };
        let cell = |c: usize| {
            cells
                .iter()
                .find(|(col, _)| usize::try_from(*col).ok() == Some(c))
                .map(|(_, t)| t.clone())
        };
        match self.columns {
            None => {
                let header: Vec<(usize, String)> = cells
                    .iter()
                    .map(|(c, t)| (*c as usize, t.clone()))
                    .collect();
                self.columns = Some(Columns::find(&header)?);
            }
            Some(columns) => self.out.push(columns.row(row as usize + 1, cell)),
        }
        Ok(())
    }
}

fn cell_text(c: &calamine::Data) -> Option<String> {
    use calamine::Data;
    match c {
        Data::Empty => None,
        Data::String(s) => Some(s.clone()),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => Some(format!("{}", *f as i64)),
        Data::Float(f) => Some(f.to_string()),
        Data::Int(i) => Some(i.to_string()),
        Data::Bool(b) => Some(b.to_string()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;

    const MAIN: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    const RELS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
    const DOC_RELS: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

    /// The parts of a one-sheet workbook around `sheet_data` (the `<sheetData>` content).
    pub(crate) fn workbook_parts(sheet_data: &str) -> Vec<(String, Vec<u8>)> {
        let parts = [
            (
                "[Content_Types].xml",
                "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>"
                    .to_string(),
            ),
            (
                "xl/workbook.xml",
                format!(
                    "<workbook xmlns=\"{MAIN}\" xmlns:r=\"{DOC_RELS}\"><sheets>\
                     <sheet name=\"Sheet1\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
                ),
            ),
            (
                "xl/_rels/workbook.xml.rels",
                format!(
                    "<Relationships xmlns=\"{RELS}\"><Relationship Id=\"rId1\" \
                     Type=\"{DOC_RELS}/worksheet\" Target=\"worksheets/sheet1.xml\"/>\
                     </Relationships>"
                ),
            ),
            (
                "xl/worksheets/sheet1.xml",
                format!(
                    "<worksheet xmlns=\"{MAIN}\"><sheetData>{sheet_data}</sheetData></worksheet>"
                ),
            ),
        ];
        parts
            .into_iter()
            .map(|(n, t)| (n.to_string(), t.into_bytes()))
            .collect()
    }

    /// A deflated zip of `parts`.
    pub(crate) fn zip_of(parts: &[(String, Vec<u8>)]) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in parts {
            zip.start_file(name.as_str(), options).unwrap();
            zip.write_all(bytes).unwrap();
        }
        zip.finish().unwrap().into_inner()
    }

    /// An inline-string cell.
    fn cell(r: &str, text: &str) -> String {
        format!("<c r=\"{r}\" t=\"inlineStr\"><is><t>{text}</t></is></c>")
    }

    /// Sets the uncompressed size `part` declares (local header and central directory).
    fn declare_size(zip: &mut [u8], part: &str, size: u32) {
        let mut patched = 0;
        for i in 0..zip.len().saturating_sub(46) {
            let (name_at, size_at) = match &zip[i..i + 4] {
                b"PK\x03\x04" => (i + 30, i + 22),
                b"PK\x01\x02" => (i + 46, i + 24),
                _ => continue,
            };
            let len_at = if name_at == i + 30 { i + 26 } else { i + 28 };
            let len = usize::from(u16::from_le_bytes([zip[len_at], zip[len_at + 1]]));
            if zip.get(name_at..name_at + len) == Some(part.as_bytes()) {
                zip[size_at..size_at + 4].copy_from_slice(&size.to_le_bytes());
                patched += 1;
            }
        }
        assert_eq!(patched, 2, "{part}");
    }

    fn message(e: ScoreError) -> String {
        e.to_string()
    }

    #[test]
    fn rows_stream_from_the_first_sheet() {
        let data = format!(
            "<row r=\"1\">{}{}{}</row><row r=\"2\">{}{}</row>\
             <row r=\"3\"><c r=\"A3\"><v>1</v></c>{}</row>\
             <row r=\"1048576\">{}</row>",
            cell("A1", "index"),
            cell("B1", "question"),
            cell("C1", "prediction"),
            "<c r=\"A2\"><v>0</v></c>",
            cell("C2", "The answer is 44."),
            cell("C3", "12.5"),
            cell("XFD1048576", "far away"),
        );
        let bytes = zip_of(&workbook_parts(&data));
        let rows = table(&bytes, "m.xlsx", &Limits::DEFAULT).unwrap();
        let got: Vec<(usize, Option<&str>, Option<&str>)> = rows
            .iter()
            .map(|r| (r.row, r.index.as_deref(), r.prediction.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (2, Some("0"), Some("The answer is 44.")),
                (3, Some("1"), Some("12.5")),
                (1048576, None, None)
            ]
        );
    }

    #[test]
    fn a_workbook_over_the_total_bound_is_refused_naming_the_part() {
        let data = format!("<row r=\"1\">{}</row>", cell("A1", &"a".repeat(4000)));
        let bytes = zip_of(&workbook_parts(&data));
        let limits = Limits {
            total: 3000,
            ..Limits::DEFAULT
        };
        let e = message(check(&bytes, "m.xlsx", &limits).unwrap_err());
        assert!(
            e.starts_with("m.xlsx: part xl/worksheets/sheet1.xml declares 4"),
            "{e}"
        );
        assert!(e.contains("over the 3000-byte bound"), "{e}");
        assert!(check(&bytes, "m.xlsx", &Limits::DEFAULT).is_ok());
    }

    #[test]
    fn a_zip_bomb_is_refused_by_its_ratio() {
        // 4 MiB of one byte deflates about 1000:1.
        let data = format!("<row r=\"1\">{}</row>", cell("A1", &"a".repeat(4 << 20)));
        let bytes = zip_of(&workbook_parts(&data));
        assert!(bytes.len() < 64 << 10, "{}", bytes.len());
        let e = message(table(&bytes, "bomb.xlsx", &Limits::DEFAULT).unwrap_err());
        assert!(
            e.starts_with("bomb.xlsx: part xl/worksheets/sheet1.xml expands from "),
            "{e}"
        );
        assert!(e.contains("more than 100:1"), "{e}");
    }

    #[test]
    fn a_part_larger_than_its_header_says_is_refused() {
        let data = format!("<row r=\"1\">{}</row>", cell("A1", &"b".repeat(100_000)));
        let mut bytes = zip_of(&workbook_parts(&data));
        declare_size(&mut bytes, "xl/worksheets/sheet1.xml", 1000);
        let e = message(table(&bytes, "lies.xlsx", &Limits::DEFAULT).unwrap_err());
        assert_eq!(
            e,
            "lies.xlsx: part xl/worksheets/sheet1.xml inflates past the 1000 bytes its \
             header declares: refused (a corrupt or crafted workbook)"
        );
    }
}
