#[test]
fn read() {
    let text = std::fs::read_to_string("/tmp/read.txt").unwrap_or_default();
    for t in text.split("\n====\n") {
        let c = server::search::criteria::extract(t);
        println!("{t:?}\n{c:#?}\n");
    }
}
