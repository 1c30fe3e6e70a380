// A format! habit: text! and fail! join pieces, so `{}` would reach the model as it is.
use subako_tiny::{Args, Reply, ToolError, fail};

fn rate(args: &Args<'_>) -> Result<Reply, ToolError> {
    let n = args.int("rating", 0, 10)?;
    if n > 5 {
        fail!("rating {} is too high", n);
    }
    Ok(Reply::text("ok"))
}

fn main() {
    let _ = rate;
}
