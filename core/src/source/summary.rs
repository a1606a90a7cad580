//! Short descriptions taken from what a reader of a file sees first.

/// The longest description taken from a body: its first heading, else its
/// first paragraph, as plain text of at most this many characters.
const DERIVED_DESCRIPTION_MAX: usize = 200;

/// The first heading (when `heading_first`) or paragraph of a Markdown
/// body, without Markdown marks, cut at a word boundary; `None` when the
/// body has no text. A README's title is its name, so a plugin's summary
/// skips headings, badges and images and takes the first paragraph.
pub(crate) fn summary(body: &str, heading_first: bool) -> Option<String> {
    let mut in_fence = false;
    let mut paragraph: Vec<&str> = Vec::new();
    for line in body.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || trimmed.starts_with("<!--") || trimmed.starts_with('<') {
            continue;
        }
        let badge = trimmed.starts_with("![") || trimmed.starts_with("[![");
        if badge || (!heading_first && trimmed.starts_with('#') && paragraph.is_empty()) {
            continue;
        }
        if trimmed.is_empty() {
            if !paragraph.is_empty() {
                break;
            }
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix('#') {
            if paragraph.is_empty() {
                let heading = heading.trim_start_matches('#').trim();
                if !heading.is_empty() {
                    return Some(plain_words(heading));
                }
            }
            break;
        }
        paragraph.push(trimmed);
    }
    let text = plain_words(&paragraph.join(" "));
    (!text.is_empty()).then_some(text)
}

fn plain_words(text: &str) -> String {
    let plain: String = text.chars().filter(|c| !matches!(c, '*' | '`')).collect();
    let words: Vec<&str> = plain.split_whitespace().collect();
    let mut out = String::new();
    for word in words {
        if out.chars().count() + word.chars().count() + 1 > DERIVED_DESCRIPTION_MAX {
            out.push('…');
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.trim_end_matches(':').to_string()
}
