//! The shapes a service contract must have: a health URL something can
//! probe and a version range something can compare against.

/// An absolute `http(s)://host...` URL with no whitespace.
pub(crate) fn is_health_url(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://")) else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    !host.is_empty() && !url.contains(char::is_whitespace)
}

/// A semver range as npm and Cargo write them: comparators (`>=1.2`,
/// `<2`, `^1.4.0`, `~2.1`, `1.x`, `*`) joined by spaces or commas, `a - b`
/// hyphen ranges, and `||` alternatives.
pub(crate) fn is_version_range(range: &str) -> bool {
    !range.trim().is_empty()
        && range.split("||").all(|alternative| {
            let tokens: Vec<&str> =
                alternative.split([' ', ',']).filter(|t| !t.is_empty() && *t != "-").collect();
            !tokens.is_empty() && tokens.iter().all(|t| is_comparator(t))
        })
}

fn is_comparator(token: &str) -> bool {
    let version = [">=", "<=", ">", "<", "=", "^", "~"]
        .iter()
        .find_map(|op| token.strip_prefix(op))
        .unwrap_or(token)
        .trim_start_matches('v');
    let core = version.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    (1..=3).contains(&parts.len())
        && parts.iter().all(|p| {
            matches!(*p, "x" | "X" | "*") || (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_ranges() {
        for ok in [
            ">=1.2",
            "^1.4.0",
            "~2.1.0",
            "1.x",
            "*",
            ">=1.2, <2",
            ">=1.2 <2.0.0",
            "1.2 - 2.0",
            "^1 || ^2",
            "=1.0.0-rc.1",
        ] {
            assert!(is_version_range(ok), "{ok}");
        }
        for bad in ["", "latest", ">=", "1..2", "1.2.3.4", "^a.b", "|| ^1"] {
            assert!(!is_version_range(bad), "{bad}");
        }
    }

    #[test]
    fn health_urls() {
        assert!(is_health_url("https://connect.example.com/health"));
        assert!(is_health_url("http://localhost:8080/health"));
        for bad in ["connect.example.com/health", "https:///health", "ftp://x/health", "https://a b/health"] {
            assert!(!is_health_url(bad), "{bad}");
        }
    }
}
