//! Parsing one line into a `serde_json::Value` with bounded memory: an array longer
//! than [`MAX_ARRAY`] or a line of more than [`MAX_VALUES`] JSON values is refused
//! while it is being parsed, before it is built in memory (a 53 MB line of a million
//! empty objects would otherwise take over a gigabyte before any limit is checked).

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;

/// Longest array accepted anywhere in a line: five times a Scene's most items
/// (`scene::limits::MAX_ITEMS`), so that an array a little past a Scene or Problem
/// limit still gets the error naming its field, and a million-item array is refused
/// before it is built.
pub(crate) const MAX_ARRAY: usize = 100_000;

/// Most JSON values (objects, arrays, strings, numbers, …) in one line: room for a
/// Scene at its item limit with every field set (about 30 values an item).
pub(crate) const MAX_VALUES: usize = 1_000_000;

/// Parses `line` as one JSON value, refusing it as soon as an array grows past
/// `MAX_ARRAY` or the line past `MAX_VALUES` values.
pub fn parse_value(line: &str) -> Result<Value, serde_json::Error> {
    let budget = Cell::new(MAX_VALUES);
    let mut de = serde_json::Deserializer::from_str(line);
    let value = Bounded { budget: &budget }.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Builds one value, counting it (and everything in it) against the line's budget.
#[derive(Clone, Copy)]
struct Bounded<'a> {
    budget: &'a Cell<usize>,
}

impl Bounded<'_> {
    fn spend<E: de::Error>(self) -> Result<(), E> {
        match self.budget.get() {
            0 => Err(E::custom(format_args!(
                "more than {MAX_VALUES} JSON values in one line"
            ))),
            n => {
                self.budget.set(n - 1);
                Ok(())
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for Bounded<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Bounded<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.spend()?;
        // JSON text has no NaN or infinity, so every parsed float is finite.
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.spend()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            if items.len() == MAX_ARRAY {
                return Err(de::Error::custom(format_args!(
                    "an array longer than {MAX_ARRAY} elements"
                )));
            }
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.spend()?;
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            self.spend()?;
            let value = map.next_value_seed(self)?;
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_like_serde_json() {
        for text in [
            r#"{"a":[1,-2,3.5,"x",null,true,{"b":[]}],"c":{}}"#,
            r#"[1e300, -0.0, 18446744073709551615, -9223372036854775808]"#,
            r#""\u00e9\n""#,
            r#"{"k":1,"k":2}"#,
        ] {
            let ours = parse_value(text).unwrap();
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for text in ["", "{", "[1,]", "{} {}", "nan", "{\"a\" 1}"] {
            assert!(parse_value(text).is_err(), "{text}");
        }
    }

    #[test]
    fn a_long_array_is_refused_at_its_limit() {
        let ok = format!("[{}0]", "0,".repeat(MAX_ARRAY - 1));
        assert_eq!(
            parse_value(&ok).unwrap().as_array().unwrap().len(),
            MAX_ARRAY
        );
        let long = format!("[{}0]", "{},".repeat(MAX_ARRAY));
        let e = parse_value(&long).unwrap_err().to_string();
        assert!(e.contains("an array longer than 100000 elements"), "{e}");
    }

    #[test]
    fn too_many_values_are_refused() {
        // 10 arrays of 100,000 numbers: each array is allowed, the line is not.
        let inner = format!("[{}0]", "0,".repeat(MAX_ARRAY - 1));
        let line = format!("[{}{inner}]", format!("{inner},").repeat(10));
        let e = parse_value(&line).unwrap_err().to_string();
        assert!(e.contains("more than 1000000 JSON values"), "{e}");
    }
}
