//! GeomRel relation-identification rows of the manifest (`"task": "relations"`): the
//! relation a multiple-choice question asks about, its domain, subset and mode,
//! read into [`ItemRelation`]. A row without `task` is a GeomVerse row.
//!
//! Checked against the relation pool ([`crate::generate::relations::RELATIONS`]), the
//! one table of relations: the name must be one of it and the domain the one the
//! table gives it, so a report never groups an item under a relation or domain the
//! generator cannot have meant. `answer_text`, when present, must be the text of the
//! option `answer` names.

use super::error::{LineReason, bad, required_string};
use crate::generate::relations::{CANNOT_BE_INFERRED, Domain, Mode, Subset, relation};
use crate::words::Words;
use serde_json::{Map, Value};

/// The value of `task` that marks a relation row.
pub(crate) const RELATIONS_TASK: &str = "relations";

/// What a relation row adds to a manifest item.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ItemRelation {
    /// The relation asked about: its name in the pool (also on indeterminate items).
    pub relation: &'static str,
    pub domain: Domain,
    pub subset: Subset,
    pub mode: Mode,
}

/// Whether option `index` of `choices` is GeomRel's "Cannot be inferred".
pub(crate) fn is_cannot_be_inferred(choices: &[String], index: usize) -> bool {
    choices.get(index).is_some_and(|c| c == CANNOT_BE_INFERRED)
}

/// Whether a manifest row is a relation row: `false` without `task` (a GeomVerse
/// row), `true` for `"task": "relations"`, an error for any other `task`.
pub(super) fn is_relation_row(map: &Map<String, Value>) -> Result<bool, LineReason> {
    match map.get("task") {
        None => Ok(false),
        Some(Value::String(t)) if t == RELATIONS_TASK => Ok(true),
        Some(_) => Err(bad(
            "task",
            format!("must be \"{RELATIONS_TASK}\" or absent (a GeomVerse row)"),
        )),
    }
}

/// The required key `key` as a value of `T`, named by its word.
fn word<T: Words>(map: &Map<String, Value>, key: &str) -> Result<T, LineReason> {
    let text = required_string(map, key)?;
    crate::words::parse(&text).map_err(|_| {
        bad(
            key,
            format!("must be {}, got {text:?}", crate::words::expected::<T>(&[])),
        )
    })
}

/// Reads and checks the relation keys of a relation row whose answer is option
/// `index` of `choices`.
pub(super) fn parse_relation(
    map: &Map<String, Value>,
    index: usize,
    choices: &[String],
) -> Result<ItemRelation, LineReason> {
    if let Some(text) = map.get("answer_text")
        && text.as_str() != Some(choices[index].as_str())
    {
        return Err(bad(
            "answer_text",
            format!(
                "must be the text of the answer's option, {:?}",
                choices[index]
            ),
        ));
    }
    let name = required_string(map, "relation")?;
    let pooled = relation(&name).ok_or_else(|| {
        bad(
            "relation",
            format!("{name:?} is not a relation of the pool"),
        )
    })?;
    let domain: Domain = word(map, "domain")?;
    if domain != pooled.domain {
        return Err(bad(
            "domain",
            format!(
                "{name} is a {} relation, not {}",
                pooled.domain.name(),
                domain.name()
            ),
        ));
    }
    let subset: Subset = word(map, "subset")?;
    let mode: Mode = word(map, "mode")?;
    Ok(ItemRelation {
        relation: pooled.name,
        domain,
        subset,
        mode,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::parse_manifest;

    const CHOICES: &str =
        r#"["Parallel","Perpendicular","Intersecting but not perpendicular","Cannot be inferred"]"#;

    /// A relation row with `edit` applied to its JSON.
    fn row(edit: impl FnOnce(&mut Map<String, Value>)) -> String {
        let mut v: Value = serde_json::from_str(&format!(
            r#"{{"id":"r1","base_id":"r1","variant":{{}},"task":"relations","answer":"D","choices":{CHOICES},"answer_text":"Cannot be inferred","relation":"parallel","domain":"line","subset":"advanced","mode":"text","question":"q"}}"#
        ))
        .unwrap();
        edit(v.as_object_mut().unwrap());
        v.to_string()
    }

    fn parse(line: &str) -> Result<Option<ItemRelation>, LineReason> {
        let (items, errors) = parse_manifest(line.as_bytes(), "m.jsonl");
        match errors.into_iter().next() {
            Some(e) => Err(e.reason),
            None => Ok(items[0].relation.clone()),
        }
    }

    fn field_of(r: Result<Option<ItemRelation>, LineReason>) -> String {
        match r {
            Err(LineReason::BadField { field, .. } | LineReason::MissingField { field }) => field,
            other => panic!("expected a field error, got {other:?}"),
        }
    }

    #[test]
    fn a_relation_row_reads_its_keys() {
        let item = parse(&row(|_| {})).unwrap().unwrap();
        assert_eq!(
            item,
            ItemRelation {
                relation: "parallel",
                domain: Domain::Line,
                subset: Subset::Advanced,
                mode: Mode::Text
            }
        );
        // answer_text is optional; a GeomVerse row has no relation.
        assert!(
            parse(&row(|m| {
                m.remove("answer_text");
            }))
            .unwrap()
            .is_some()
        );
        let geomverse = r#"{"id":"p","base_id":"p","variant":{},"answer":4}"#;
        assert_eq!(parse(geomverse), Ok(None));
    }

    #[test]
    fn each_missing_or_bad_key_is_named() {
        for key in ["relation", "domain", "subset", "mode"] {
            let missing = parse(&row(|m| {
                m.remove(key);
            }));
            assert_eq!(
                missing,
                Err(LineReason::MissingField { field: key.into() }),
                "{key}"
            );
            for bad in [json_str(""), Value::from(3), Value::Null, json_str("other")] {
                let r = parse(&row(|m| {
                    m.insert(key.into(), bad.clone());
                }));
                assert_eq!(field_of(r), key, "{key} = {bad}");
            }
        }
    }

    fn json_str(s: &str) -> Value {
        Value::String(s.into())
    }

    #[test]
    fn task_answer_text_and_domain_are_checked() {
        let r = parse(&row(|m| {
            m.insert("task".into(), json_str("geomverse"));
        }));
        assert_eq!(field_of(r), "task");
        // The text of another option (C is the answer's letter here, D its text).
        let r = parse(&row(|m| {
            m.insert("answer".into(), json_str("C"));
        }));
        assert_eq!(field_of(r), "answer_text");
        let r = parse(&row(|m| {
            m.insert("answer_text".into(), Value::from(3));
        }));
        assert_eq!(field_of(r), "answer_text");
        // parallel is a line relation.
        let r = parse(&row(|m| {
            m.insert("domain".into(), json_str("angle"));
        }));
        assert!(
            matches!(&r, Err(LineReason::BadField { field, message }) if field == "domain" && message.contains("line relation")),
            "{r:?}"
        );
        // A relation row must be multiple choice, whatever its answer.
        for answer in [json_str("D"), Value::from(1)] {
            let r = parse(&row(|m| {
                m.remove("choices");
                m.insert("answer".into(), answer);
            }));
            assert_eq!(
                r,
                Err(LineReason::MissingField {
                    field: "choices".into()
                })
            );
        }
    }

    #[test]
    fn cannot_be_inferred_is_the_exact_option_text() {
        let choices = ["Parallel".to_string(), "Cannot be inferred".to_string()];
        assert!(is_cannot_be_inferred(&choices, 1));
        assert!(!is_cannot_be_inferred(&choices, 0));
        assert!(!is_cannot_be_inferred(&choices, 2));
    }
}
