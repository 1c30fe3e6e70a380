//! Host tests: real directories mounted per test thread.

extern crate std;

use alloc::string::String;
use alloc::vec;
use std::path::PathBuf;

use super::*;
use crate::ToolError;

/// A fresh empty directory under the system's temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut name = String::from("subako-tiny-fs-");
        name.push_str(tag);
        name.push('-');
        name.push_str(&std::format!("{}-{n}", std::process::id()));
        let dir = std::env::temp_dir().join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn longest_prefix_wins() {
    let skills = TempDir::new("skills");
    let chart = TempDir::new("chart");
    mount("/skills", &skills.0);
    mount("/skills/chart", &chart.0);
    std::fs::write(chart.0.join("a.txt"), "from chart").unwrap();
    std::fs::create_dir(skills.0.join("other")).unwrap();
    std::fs::write(skills.0.join("other/a.txt"), "from skills").unwrap();
    assert_eq!(read_to_string("/skills/chart/a.txt").unwrap(), "from chart");
    assert_eq!(read_to_string("/skills/other/a.txt").unwrap(), "from skills");
    // A name that only starts like the mount is not beneath it.
    assert_eq!(read_to_string("/skills/chartx/a.txt").unwrap_err().errno(), Some(errno::NOENT));
    // Mount order does not matter.
    unmount("/skills");
    mount("/skills", &skills.0);
    assert_eq!(read_to_string("/skills/chart/a.txt").unwrap(), "from chart");
}

#[test]
fn dot_dot_may_not_leave_its_mount() {
    let tmp = TempDir::new("dots");
    let data = TempDir::new("dots-data");
    mount("/volume/tmp", &tmp.0);
    mount("/volume/data", &data.0);
    write("/volume/tmp/a/../b.txt", b"b").unwrap();
    assert_eq!(std::fs::read(tmp.0.join("b.txt")).unwrap(), b"b");
    assert_eq!(read("/volume/tmp/./x/.././b.txt").unwrap(), b"b");
    for path in ["/volume/tmp/../data/b.txt", "/volume/tmp/../x", "/volume/../volume/tmp/b.txt", "/../etc/passwd"] {
        let e = read(path).unwrap_err();
        assert_eq!(e.reason(), Reason::LeavesMount, "{path}");
        assert_eq!(e.message(), std::format!("read {path}: `..` climbs out of the mounted directory"));
    }
}

#[test]
fn relative_paths_are_refused() {
    let tmp = TempDir::new("relative");
    mount("/volume/tmp", &tmp.0);
    for path in ["volume/tmp/a.txt", "a.txt", "", "./a.txt"] {
        let e = write(path, b"x").unwrap_err();
        assert_eq!(e.reason(), Reason::Relative, "{path:?}");
    }
    assert_eq!(
        ToolError::from(read("a.txt").unwrap_err()).message(),
        "read a.txt: not an absolute path (there is no working directory)"
    );
}

#[test]
fn a_missing_mount_says_so() {
    unmount("/volume/data");
    unmount("/package");
    let e = read("/volume/data/in.csv").unwrap_err();
    assert_eq!(e.reason(), Reason::NotMounted);
    assert_eq!(e.message(), "read /volume/data/in.csv: /volume/data is not mounted: the agent has not enabled it");
    assert_eq!(
        read("/package/t.txt").unwrap_err().message(),
        "read /package/t.txt: /package is not mounted: the package has no assets"
    );
    assert_eq!(
        read_dir("/elsewhere").unwrap_err().message(),
        "list /elsewhere: not mounted: no preopened directory holds this path"
    );
    // `/volume/database` is not beneath `/volume/data`.
    assert!(read("/volume/database/x").unwrap_err().message().ends_with("no preopened directory holds this path"));
}

#[test]
fn errno_words() {
    let words = |errno: u16, op: &'static str| FsError::new(op, "/volume/tmp/a.bin", Reason::Errno(errno)).message();
    assert_eq!(
        words(errno::DQUOT, "write"),
        "write /volume/tmp/a.bin: disk quota exceeded (EDQUOT): the call's file write budget is spent"
    );
    assert_eq!(words(errno::NOENT, "read"), "read /volume/tmp/a.bin: no such file or directory (ENOENT)");
    assert_eq!(words(errno::NOTSUP, "write"), "write /volume/tmp/a.bin: not supported (ENOTSUP)");
    assert_eq!(
        words(errno::NOTCAPABLE, "write"),
        "write /volume/tmp/a.bin: not allowed by the directory's rights (ENOTCAPABLE)"
    );
    assert_eq!(words(errno::ACCES, "write"), "write /volume/tmp/a.bin: permission denied (EACCES)");
    assert_eq!(words(errno::EXIST, "create"), "create /volume/tmp/a.bin: file exists (EEXIST)");
    assert_eq!(words(errno::ISDIR, "read"), "read /volume/tmp/a.bin: is a directory (EISDIR)");
    assert_eq!(words(errno::NOTDIR, "read"), "read /volume/tmp/a.bin: not a directory (ENOTDIR)");
    assert_eq!(
        words(errno::NOSPC, "write"),
        "write /volume/tmp/a.bin: no space left on device (ENOSPC): the session volume is full: delete files to \
         write again"
    );
    assert_eq!(words(0, "read"), "read /volume/tmp/a.bin: ESUCCESS");
    // The errnos of sockets and processes, which no file operation meets, by name.
    assert_eq!(words(14, "read"), "read /volume/tmp/a.bin: ECONNREFUSED");
    assert_eq!(words(8, "read"), "read /volume/tmp/a.bin: EBADF");
    assert_eq!(words(76, "read"), "read /volume/tmp/a.bin: not allowed by the directory's rights (ENOTCAPABLE)");
    assert_eq!(words(77, "read"), "read /volume/tmp/a.bin: an error WASI does not define (errno 77)");
    assert_eq!(words(u16::MAX, "read"), "read /volume/tmp/a.bin: an error WASI does not define (errno 65535)");
    let tool: ToolError = FsError::new("write", "/volume/tmp/a.bin", Reason::Errno(errno::DQUOT)).into();
    assert!(tool.message().starts_with("write /volume/tmp/a.bin: disk quota exceeded"));
}

#[test]
fn a_path_for_a_file_that_names_a_directory_is_refused() {
    let tmp = TempDir::new("slash");
    mount("/volume/tmp", &tmp.0);
    create_dir_all("/volume/tmp/d").unwrap();
    // Before any other check: `/volume/tmp/..` would climb out, `a/` is not absolute.
    for path in [
        "/volume/tmp/d/",
        "/volume/tmp/d/.",
        "/volume/tmp/d/..",
        "/volume/tmp/",
        "/volume/tmp/d//",
        "/volume/tmp/..",
        "a/",
    ] {
        let e = write(path, b"x").unwrap_err();
        assert_eq!(e.reason(), Reason::NamesADirectory, "{path}");
        assert_eq!(
            e.message(),
            alloc::format!(
                "write {path}: the path names a directory (it ends in `/`, `/.` or `/..`): end it with a file name"
            )
        );
        assert_eq!(append(path, b"x").unwrap_err().reason(), Reason::NamesADirectory, "{path}");
        assert_eq!(read(path).unwrap_err().reason(), Reason::NamesADirectory, "{path}");
        assert_eq!(File::create(path).err().map(|e| e.reason()), Some(Reason::NamesADirectory), "{path}");
        assert_eq!(remove_file(path).unwrap_err().reason(), Reason::NamesADirectory, "{path}");
        assert_eq!(write_atomic(path, b"x").unwrap_err().message(), e.message(), "{path}");
        assert_eq!(rename(path, "/volume/tmp/to").unwrap_err().reason(), Reason::NamesADirectory, "{path}");
        assert_eq!(rename("/volume/tmp/from", path).unwrap_err().reason(), Reason::NamesADirectory, "{path}");
    }
    assert_eq!(std::fs::read_dir(&tmp.0).unwrap().count(), 1, "only `d`");
    // A name that merely ends in dots is a file's.
    write("/volume/tmp/d/x..", b"x").unwrap();
    write("/volume/tmp/.hidden", b"x").unwrap();
    assert_eq!(read_dir("/volume/tmp/d").unwrap(), ["x.."]);
}

#[test]
fn whole_file_operations() {
    let tmp = TempDir::new("whole");
    mount("/volume/tmp", &tmp.0);
    create_dir_all("/volume/tmp/x/y/z").unwrap();
    create_dir_all("/volume/tmp/x/y/z").unwrap();
    create_dir_all("/volume/tmp/").unwrap();
    assert!(is_dir("/volume/tmp/x/y"));
    write("/volume/tmp/x/b.txt", b"hello").unwrap();
    append("/volume/tmp/x/b.txt", b", world").unwrap();
    append("/volume/tmp/x/new.txt", b"fresh").unwrap();
    write("/volume/tmp/x/a.txt", "héllo".as_bytes()).unwrap();
    assert_eq!(read_to_string("/volume/tmp/x/b.txt").unwrap(), "hello, world");
    assert_eq!(read_to_string("/volume/tmp/x/new.txt").unwrap(), "fresh");
    // A path built at run time, passed as `&text` (author trial 24).
    assert_eq!(read_to_string(&crate::text!("/volume/tmp/x/", "new", ".txt")).unwrap(), "fresh");
    assert_eq!(size("/volume/tmp/x/a.txt").unwrap(), 6);
    assert_eq!(read_dir("/volume/tmp/x").unwrap(), vec!["a.txt", "b.txt", "new.txt", "y"]);
    write("/volume/tmp/x/b.txt", b"short").unwrap();
    assert_eq!(read("/volume/tmp/x/b.txt").unwrap(), b"short");
    remove_file("/volume/tmp/x/b.txt").unwrap();
    assert!(!exists("/volume/tmp/x/b.txt"));
    assert_eq!(
        remove_file("/volume/tmp/x/b.txt").unwrap_err().message(),
        "remove /volume/tmp/x/b.txt: no such file or directory (ENOENT)"
    );
    assert_eq!(read("/volume/tmp/x/y").unwrap_err().errno(), Some(errno::ISDIR));
    // A file in the way of a directory: not "file exists", which reads
    // as if the directory were there (review 66).
    assert_eq!(
        create_dir_all("/volume/tmp/x/a.txt").unwrap_err().message(),
        "create directory /volume/tmp/x/a.txt: not a directory (ENOTDIR)"
    );
    assert_eq!(create_dir_all("/volume/tmp/x/a.txt/deeper").unwrap_err().errno(), Some(errno::NOTDIR));
    std::fs::write(tmp.0.join("bad.txt"), [0xff, 0xfe]).unwrap();
    assert_eq!(
        read_to_string("/volume/tmp/bad.txt").unwrap_err().message(),
        "read /volume/tmp/bad.txt: not UTF-8 text"
    );
}

#[test]
fn files_stream_in_chunks() {
    let tmp = TempDir::new("stream");
    mount("/volume/tmp", &tmp.0);
    let mut file = File::create("/volume/tmp/big.bin").unwrap();
    let chunk: alloc::vec::Vec<u8> = (0..=255u8).collect();
    for _ in 0..1000 {
        file.write_all(&chunk).unwrap();
    }
    assert_eq!(file.size().unwrap(), 256_000);
    drop(file);
    let mut file = File::open("/volume/tmp/big.bin").unwrap();
    let mut buf = [0u8; 1000];
    let mut total = 0usize;
    loop {
        let n = file.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        for (i, &b) in buf[..n].iter().enumerate() {
            assert_eq!(b, ((total + i) % 256) as u8);
        }
        total += n;
    }
    assert_eq!(total, 256_000);
    assert_eq!(File::create_new("/volume/tmp/big.bin").err().unwrap().errno(), Some(errno::EXIST));
    let mut log = File::append("/volume/tmp/log.txt").unwrap();
    log.write_all(b"one\n").unwrap();
    drop(log);
    File::append("/volume/tmp/log.txt").unwrap().write_all(b"two\n").unwrap();
    assert_eq!(read_to_string("/volume/tmp/log.txt").unwrap(), "one\ntwo\n");
}

/// A name that is not UTF-8 refuses the listing, saying so, as wasmtime
/// refuses it on the module (review 83: the host left the name out, the
/// module answered "illegal byte sequence").
#[test]
fn a_name_that_is_not_utf8_refuses_the_listing_as_on_the_module() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = TempDir::new("not-utf8");
    mount("/volume/tmp", &tmp.0);
    std::fs::write(tmp.0.join("good.txt"), "").unwrap();
    assert_eq!(read_dir("/volume/tmp").unwrap(), ["good.txt"]);
    std::fs::write(tmp.0.join(std::ffi::OsStr::from_bytes(b"bad\xffname")), "").unwrap();
    let error = read_dir("/volume/tmp").unwrap_err();
    assert_eq!(error.errno(), Some(errno::ILSEQ));
    assert_eq!(error.message(), "list /volume/tmp: illegal byte sequence (EILSEQ): a name is not UTF-8");
}

#[test]
fn listings_sort_by_bytes() {
    let mut state = 0x9E37_79B9u32;
    for len in [0usize, 1, 2, 3, 10, 57, 1000, 5000] {
        let mut names: alloc::vec::Vec<String> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                std::format!("{:x}", state % 3000)
            })
            .collect();
        let mut expected = names.clone();
        expected.sort();
        sort(&mut names);
        assert_eq!(names, expected, "{len}");
    }
}

/// A last line a full volume cut short stays a line of its own (one
/// `json::lines` skips): the next entry starts on a new line rather than
/// being written onto it, so both are not lost.
#[test]
fn append_line_never_writes_onto_a_cut_short_last_line() {
    let tmp = TempDir::new("append-line");
    mount("/volume/tmp", &tmp.0);
    let path = "/volume/tmp/log.jsonl";
    // A new file, then a whole one: no line is started before the entry.
    append_line(path, br#"{"n":1}"#).unwrap();
    append_line(path, br#"{"n":2}"#).unwrap();
    assert_eq!(read_to_string(path).unwrap(), "{\"n\":1}\n{\"n\":2}\n");
    // An empty file gains no empty line either.
    write(path, b"").unwrap();
    append_line(path, br#"{"n":1}"#).unwrap();
    assert_eq!(read_to_string(path).unwrap(), "{\"n\":1}\n");

    // Cut short: the write of entry 2 stopped part-way (UTF-8 cut too).
    std::fs::write(tmp.0.join("log.jsonl"), &"{\"n\":1}\n{\"n\":2,\"s\":\"\u{3042}".as_bytes()[..22]).unwrap();
    append_line(path, br#"{"n":3}"#).unwrap();
    append_line(path, br#"{"n":4}"#).unwrap();
    let text = read(path).unwrap();
    assert_eq!(text, b"{\"n\":1}\n{\"n\":2,\"s\":\"\xe3\x81\n{\"n\":3}\n{\"n\":4}\n");
    let entries: alloc::vec::Vec<&[u8]> = crate::json::lines(&text).map(|v| v.raw()).collect();
    assert_eq!(entries, [&br#"{"n":1}"#[..], br#"{"n":3}"#, br#"{"n":4}"#]);

    // A file of one fragment and nothing else.
    write(path, br#"{"n""#).unwrap();
    append_line(path, br#"{"n":5}"#).unwrap();
    assert_eq!(read_to_string(path).unwrap(), "{\"n\"\n{\"n\":5}\n");
}

/// `write_atomic` replaces the file whole and leaves nothing beside it;
/// refused, it names the path it was given and leaves no partial file.
#[test]
fn write_atomic_replaces_whole_or_not_at_all() {
    let tmp = TempDir::new("atomic");
    mount("/volume/tmp", &tmp.0);
    write_atomic("/volume/tmp/store.jsonl", b"one\n").unwrap();
    write_atomic("/volume/tmp/store.jsonl", b"two\ntwo\n").unwrap();
    write_atomic("/volume/tmp/empty", b"").unwrap();
    assert_eq!(read("/volume/tmp/store.jsonl").unwrap(), b"two\ntwo\n");
    assert_eq!(read("/volume/tmp/empty").unwrap(), b"");
    // A file named as a partial file would be, and one of 247 bytes that
    // a partial file's cut name once matched, are not touched (review 62).
    let long = std::format!("/volume/tmp/{}.partial", "n".repeat(247));
    write("/volume/tmp/store.jsonl.partial", b"an author's").unwrap();
    write(&long, b"another file").unwrap();
    write_atomic("/volume/tmp/store.jsonl", b"three").unwrap();
    write_atomic(&long, b"itself").unwrap();
    write_atomic(&std::format!("/volume/tmp/{}", "n".repeat(250)), b"cut").unwrap();
    assert_eq!(read("/volume/tmp/store.jsonl").unwrap(), b"three");
    assert_eq!(read("/volume/tmp/store.jsonl.partial").unwrap(), b"an author's");
    assert_eq!(read(&long).unwrap(), b"itself");
    assert_eq!(read_dir("/volume/tmp").unwrap().len(), 5, "a partial file was left");
    std::fs::remove_file(tmp.0.join("store.jsonl.partial")).unwrap();
    std::fs::remove_file(tmp.0.join(&long["/volume/tmp/".len()..])).unwrap();
    std::fs::remove_file(tmp.0.join("n".repeat(250))).unwrap();
    // A preopened directory itself is a directory, as `write` finds it.
    assert_eq!(write_atomic("/volume/tmp", b"x").unwrap_err().message(), "write /volume/tmp: is a directory (EISDIR)");

    // A name of 255 bytes, and of 254 ending in a char of two: the partial
    // file's name is cut to fit, on a char's boundary.
    for name in ["n".repeat(255), "n".repeat(252) + "é"] {
        let path = std::format!("/volume/tmp/{name}");
        write_atomic(&path, b"long").unwrap();
        assert_eq!(read(&path).unwrap(), b"long");
        std::fs::remove_file(tmp.0.join(&name)).unwrap();
    }
    // A directory that is missing: named by the path given, nothing left.
    assert_eq!(
        write_atomic("/volume/tmp/none/store.jsonl", b"x").unwrap_err().message(),
        "write /volume/tmp/none/store.jsonl: no such file or directory (ENOENT)"
    );
    // A directory where the file should be: the rename fails, the partial goes.
    create_dir_all("/volume/tmp/dir/inside").unwrap();
    let refused = write_atomic("/volume/tmp/dir", b"x").unwrap_err();
    // Named as `write` names it (review 65: it said `rename`).
    assert_eq!(refused.message(), "write /volume/tmp/dir: is a directory (EISDIR)");
    assert_eq!(read_dir("/volume/tmp").unwrap(), ["dir", "empty", "store.jsonl"]);
    assert!(is_dir("/volume/tmp/dir/inside"));
}

#[test]
fn rename_replaces_and_names_both_paths_when_refused() {
    let tmp = TempDir::new("rename");
    let data = TempDir::new("rename-data");
    mount("/volume/tmp", &tmp.0);
    mount("/volume/data", &data.0);
    write("/volume/tmp/a", b"a").unwrap();
    write("/volume/tmp/b", b"b").unwrap();
    rename("/volume/tmp/a", "/volume/tmp/b").unwrap();
    assert_eq!(read_dir("/volume/tmp").unwrap(), ["b"]);
    assert_eq!(read("/volume/tmp/b").unwrap(), b"a");
    let missing = rename("/volume/tmp/a", "/volume/tmp/c").unwrap_err();
    assert_eq!(
        (missing.op(), missing.path(), missing.errno()),
        ("rename", "/volume/tmp/a to /volume/tmp/c", Some(errno::NOENT))
    );
    // Each path is resolved on its own, and a refusal names the one refused.
    assert_eq!(
        rename("/volume/tmp/b", "c").unwrap_err().message(),
        "rename c: not an absolute path (there is no working directory)"
    );
    assert_eq!(rename("/nowhere/b", "/volume/tmp/c").unwrap_err().path(), "/nowhere/b");
    // Into another preopened directory, where the host allows it.
    rename("/volume/tmp/b", "/volume/data/b").unwrap();
    assert_eq!(read("/volume/data/b").unwrap(), b"a");
    // A preopened directory itself does not move, on the host as on wasm32
    // (review 62: the host moved the whole mounted directory).
    for (from, to) in
        [("/volume/tmp", "/volume/data/moved"), ("/volume/data/b", "/volume/tmp"), ("/volume/tmp", "/volume/tmp/z")]
    {
        let refused = rename(from, to).unwrap_err();
        assert_eq!(refused.message(), std::format!("rename {from} to {to}: device or resource busy (EBUSY)"));
    }
    assert!(tmp.0.is_dir() && exists("/volume/data/b"));
    // A directory moves, as std's rename moves it.
    create_dir_all("/volume/tmp/d/e").unwrap();
    rename("/volume/tmp/d", "/volume/tmp/f").unwrap();
    assert!(is_dir("/volume/tmp/f/e") && !exists("/volume/tmp/d"));
}

#[test]
fn the_package_and_skills_are_read_only() {
    let assets = TempDir::new("read-only-assets");
    std::fs::write(assets.0.join("a.txt"), "a").unwrap();
    for guest in ["/package", "/skills", "/skills/chart"] {
        mount(guest, &assets.0);
        let file = std::format!("{guest}/a.txt");
        assert_eq!(read_to_string(&file).unwrap(), "a");
        assert_eq!(write(&file, b"b").unwrap_err().errno(), Some(errno::PERM), "{guest}");
        assert_eq!(append_line(&file, b"b").unwrap_err().errno(), Some(errno::PERM), "{guest}");
        assert_eq!(create_dir_all(&std::format!("{guest}/d")).unwrap_err().errno(), Some(errno::PERM), "{guest}");
        assert_eq!(remove_file(&file).unwrap_err().errno(), Some(errno::PERM), "{guest}");
        assert_eq!(
            write_atomic(&file, b"b").unwrap_err().message(),
            std::format!("write {file}: operation not permitted (EPERM)")
        );
        assert_eq!(rename(&file, &std::format!("{guest}/b.txt")).unwrap_err().errno(), Some(errno::PERM), "{guest}");
        unmount(guest);
    }
    assert_eq!(std::fs::read_to_string(assets.0.join("a.txt")).unwrap(), "a");
    // As SUBAKO_TINY_MOUNTS may spell them: a trailing `/` names the same mount.
    for guest in ["/package/", "/skills//", "/skills/chart/"] {
        assert!(crate::sys::fs_host::read_only_mount(guest), "{guest}");
    }
    assert!(!crate::sys::fs_host::read_only_mount("/volume/tmp/"));
}

#[test]
fn a_mount_the_worker_never_makes_is_refused() {
    let dir = TempDir::new("never-mounted");
    for guest in ["/data", "volume/tmp", "/volume", "/volume/tmp/sub", "/skills/", "/skills/a/b", "/skills/..", ""] {
        let refused = std::panic::catch_unwind(|| mount(guest, &dir.0));
        assert!(refused.is_err(), "{guest:?} was mounted");
    }
}
