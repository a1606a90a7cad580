//! The README's support matrix is generated from the runtimes' own honesty
//! rows: every kind of every runtime builds the reference sources, and the
//! worst level per component is the cell. `UPDATE_EXPECT=1` rewrites it.

use plugforge_conformance::honesty::{COMPONENTS, symbol, worst_levels};
use plugforge_conformance::repo_dir;
use plugforge_core::Runtime;

const BEGIN: &str = "<!-- support-matrix:begin -->\n";
const END: &str = "<!-- support-matrix:end -->";

fn matrix() -> String {
    let mut table = String::from("| runtime:kind |");
    for component in COMPONENTS {
        table.push_str(&format!(" {component} |"));
    }
    table.push_str(&format!("\n|---|{}\n", "---|".repeat(COMPONENTS.len())));
    for runtime in Runtime::ALL {
        for kind in runtime.kinds() {
            let worst = worst_levels(*runtime, kind);
            table.push_str(&format!("| `{}:{}` |", runtime.id(), kind.name));
            for component in COMPONENTS {
                table.push_str(&format!(" {} |", symbol(worst.get(component).copied())));
            }
            table.push('\n');
        }
    }
    table
}

#[test]
fn readme_support_matrix_matches_the_runtimes() {
    let readme_path = repo_dir().join("README.md");
    let readme = std::fs::read_to_string(&readme_path).expect("README.md");
    let start = readme.find(BEGIN).expect("README has the support-matrix markers") + BEGIN.len();
    let end = readme[start..].find(END).expect("end marker") + start;
    let generated = matrix();
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1") {
        let updated = format!("{}{generated}{}", &readme[..start], &readme[end..]);
        std::fs::write(&readme_path, updated).expect("write README");
        return;
    }
    assert_eq!(
        &readme[start..end],
        generated,
        "README support matrix is stale: UPDATE_EXPECT=1 cargo test -p plugforge-conformance"
    );
}
