//! `sqlx::migrate!` embeds `migrations/` at compile time; without this line a
//! new migration file would not rebuild the binary that must apply it.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
