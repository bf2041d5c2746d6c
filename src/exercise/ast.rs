//! The subset of CUDA C++ host code an exercise may use, as a small tree with positions.
//!
//! Produced by `parse` from tree-sitter's CUDA grammar; walked by `interp`. Anything outside
//! this tree is refused at parse time with a diagnostic, so the interpreter never meets it.

/// A 1-based line and column in the learner's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// The value types the subset knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// `int`, `long`, `long long`, `unsigned`, `size_t`, `cudaError_t`: all kept as `i64`.
    Int,
    /// `float` (rounded to `f32` on every store).
    Float,
    /// `double`.
    Double,
    Bool,
    Stream,
    Event,
    /// `float *` (and `void *` in casts).
    Ptr,
    /// `const char *` (strings for `printf`/`report`).
    Str,
    /// `dim3`: a launch configuration of up to three dimensions.
    Dim3,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    Plus,
}

/// An expression with the position it starts at.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    Null,
    Var(String),
    /// The name of a function of the file used as a value (`cudaLaunchHostFunc(s, fn, p)`).
    Func(String),
    Index(Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b` (None) or `a op= b`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `++x`, `x--`, ...: the value is the old one when not `prefix`.
    Update {
        inc: bool,
        prefix: bool,
        target: Box<Expr>,
    },
    AddrOf(Box<Expr>),
    Cast(Ty, Box<Expr>),
    /// `sizeof(T)`: the size in bytes.
    SizeOf(u64),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A call of a function from [`super::calls::TABLE`] or of a function of the file.
    Call {
        name: String,
        args: Vec<Expr>,
    },
    /// `kernel<<<config>>>(args)` of a kernel from `academy.cuh`.
    Launch {
        kernel: String,
        config: Vec<Expr>,
        args: Vec<Expr>,
    },
}

/// One declared variable: `float *h = ...`, `cudaStream_t s[4]`.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    pub name: String,
    pub ty: Ty,
    pub array_len: Option<Expr>,
    pub init: Option<Expr>,
    /// An array's `= {a, b, …}`: its first elements (the rest are zero, as in C).
    pub init_list: Option<Vec<Expr>>,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Decl(Vec<VarDecl>),
    Expr(Expr),
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        update: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `while (cond) body`, or `do body while (cond);` (`test_first: false`: the body runs
    /// once before the first test).
    While {
        cond: Expr,
        body: Box<Stmt>,
        test_first: bool,
    },
    Block(Vec<Stmt>),
    Return(Option<Expr>),
    Break,
    Continue,
    Empty,
}

/// A function of the file besides `main`: `void upload(float *d, size_t n, cudaStream_t s)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub name: String,
    /// `None` for `void`.
    pub ret: Option<Ty>,
    pub params: Vec<(String, Ty)>,
    pub body: Vec<Stmt>,
    pub pos: Pos,
}

/// A parsed exercise file: the body of `main` and the other functions it defines.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    pub main: Vec<Stmt>,
    pub functions: Vec<Function>,
}

impl Program {
    /// The function of the file called `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}
