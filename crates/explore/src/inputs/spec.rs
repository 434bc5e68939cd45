//! The `--param NAME=VALUE` and `--array NAME=LEN|NAME=[v0,...]` flags of
//! `warpsafe explore`, parsed (clap value parsers); what the values mean
//! for a kernel is checked in `super`.

use super::number::Number;

/// `--param NAME=VALUE`: an integer or a floating-point number.
pub fn param_flag(s: &str) -> Result<(String, Number), String> {
    let (name, value) = s.split_once('=').ok_or("expected NAME=VALUE")?;
    let name = name.trim();
    if name.is_empty() {
        return Err("expected NAME=VALUE".into());
    }
    Ok((name.to_string(), Number::parse(value)?))
}

/// What the user said about one array.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArraySpec {
    /// Length in elements.
    pub len: Option<u64>,
    /// Initial contents, slot by slot.
    pub init: Option<Vec<Number>>,
}

/// `--array NAME=LEN` or `--array NAME=[v0,v1,...]`.
pub fn array_flag(s: &str) -> Result<(String, ArraySpec), String> {
    let usage = "expected NAME=LEN or NAME=[v0,v1,...]";
    let (name, value) = s.split_once('=').ok_or(usage)?;
    let (name, value) = (name.trim(), value.trim());
    if name.is_empty() || value.is_empty() {
        return Err(usage.into());
    }
    if let Some(list) = value.strip_prefix('[') {
        let list = list
            .strip_suffix(']')
            .ok_or("an initial list ends with `]`")?;
        let init = if list.trim().is_empty() {
            Vec::new()
        } else {
            list.split(',')
                .map(Number::parse)
                .collect::<Result<Vec<_>, _>>()?
        };
        return Ok((
            name.to_string(),
            ArraySpec {
                len: None,
                init: Some(init),
            },
        ));
    }
    match Number::parse(value) {
        Ok(Number::Int(n)) if n >= 0 => Ok((
            name.to_string(),
            ArraySpec {
                len: Some(u64::try_from(n).unwrap_or(u64::MAX)),
                init: None,
            },
        )),
        _ => Err(format!(
            "`{value}` is not a length (a number of elements, 0 or more); {usage}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_flags_give_a_length_or_contents() {
        assert_eq!(
            array_flag("a=8"),
            Ok((
                "a".into(),
                ArraySpec {
                    len: Some(8),
                    init: None
                }
            ))
        );
        assert_eq!(
            array_flag("b=[1, -2,3.5]"),
            Ok((
                "b".into(),
                ArraySpec {
                    len: None,
                    init: Some(vec![Number::Int(1), Number::Int(-2), Number::Float(3.5)])
                }
            ))
        );
        assert_eq!(array_flag("c=[]").map(|(_, s)| s.init), Ok(Some(vec![])));
        for bad in ["a", "=4", "a=", "a=-1", "a=1.5", "a=[1,2", "a=[1,x]"] {
            assert!(array_flag(bad).is_err(), "{bad}");
        }
    }
}
