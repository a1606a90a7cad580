//! `plugforge init`: write a starter canonical source, never over a file.

use std::path::PathBuf;

use clap::Args;

use crate::failure::Failure;
use crate::{EXIT_OK, EXIT_REFUSED};

#[derive(Args)]
pub struct InitArgs {
    /// Folder to create the source in.
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Plugin name (default: the folder's name).
    #[arg(long)]
    pub name: Option<String>,
}

pub fn run(args: &InitArgs) -> Result<u8, Failure> {
    let name = match &args.name {
        Some(name) => name.clone(),
        None => {
            let absolute = std::path::absolute(&args.dir).map_err(|e| Failure::usage(e.to_string()))?;
            absolute.file_name().and_then(|n| n.to_str()).unwrap_or("my-plugin").to_lowercase()
        }
    };
    let tree = plugforge_core::starter_source(&name)?;
    let existing: Vec<String> =
        tree.iter().map(|(p, _)| p.to_string()).filter(|p| args.dir.join(p).exists()).collect();
    if !existing.is_empty() {
        eprintln!(
            "refused: {} already exist(s) in {}: {}",
            existing.len(),
            args.dir.display(),
            existing.join(", ")
        );
        return Ok(EXIT_REFUSED);
    }
    for (path, file) in tree.iter() {
        let target = args.dir.join(path.as_str());
        let parent = target.parent().expect("relative paths have a parent");
        std::fs::create_dir_all(parent).map_err(|e| Failure::usage(format!("{}: {e}", parent.display())))?;
        std::fs::write(&target, &file.bytes)
            .map_err(|e| Failure::usage(format!("{}: {e}", target.display())))?;
        println!("  create  {}", target.display());
    }
    println!("next: plugforge build {} --target claude-code", args.dir.display());
    Ok(EXIT_OK)
}
