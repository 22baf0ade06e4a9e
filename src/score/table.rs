//! A VLMEvalKit result table as read, whatever its file type (`.xlsx`, `.tsv`,
//! `.csv`): the columns that are read, found by header name, and each row's cells.

use super::error::LineReason;

/// One table row: its 1-based row number in the file (the header is row 1), the cells
/// of the columns read, or why the row was not read.
#[derive(Debug)]
pub(super) struct TableRow {
    pub row: usize,
    pub index: Option<String>,
    pub id: Option<String>,
    pub prediction: Option<String>,
    pub fault: Option<LineReason>,
}

/// The columns of a VLMEvalKit table that are read, found by header name.
#[derive(Clone, Copy)]
pub(super) struct Columns {
    index: Option<usize>,
    id: Option<usize>,
    prediction: Option<usize>,
}

impl Columns {
    /// Finds the columns in the header row's non-empty (column, text) cells, or says
    /// which are missing.
    pub(super) fn find(header: &[(usize, String)]) -> Result<Columns, String> {
        let column = |want: &str| {
            header
                .iter()
                .filter(|(_, h)| h.trim() == want)
                .map(|(c, _)| *c)
                .min()
        };
        let c = Columns {
            index: column("index"),
            id: column("id"),
            prediction: column("prediction"),
        };
        if c.prediction.is_none() || (c.index.is_none() && c.id.is_none()) {
            let found: Vec<&str> = header.iter().map(|(_, h)| h.as_str()).collect();
            return Err(format!(
                "a VLMEvalKit result needs columns index (or id) and prediction; found {found:?}"
            ));
        }
        Ok(c)
    }

    /// Whether column `c` is one that is read.
    pub(super) fn wanted(&self, c: usize) -> bool {
        [self.index, self.id, self.prediction].contains(&Some(c))
    }

    /// Row `row` (1-based), its cells given by column.
    pub(super) fn row(&self, row: usize, cell: impl Fn(usize) -> Option<String>) -> TableRow {
        let get = |c: Option<usize>| c.and_then(&cell);
        TableRow {
            row,
            index: get(self.index),
            id: get(self.id),
            prediction: get(self.prediction),
            fault: None,
        }
    }
}
