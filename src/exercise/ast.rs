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
    /// A pointer: `float *`, `void *`, `int *`, `cudaStream_t *`, … (what it points to says how
    /// host memory behind it is read).
    Ptr(Elem),
    /// `const char *` (strings for `printf`/`report`).
    Str,
    /// `dim3`: a launch configuration of up to three dimensions.
    Dim3,
}

/// What a pointer points to, as far as host memory cares: host buffers hold 4-byte elements
/// (the exercises' floats), so `float *` and 4-byte integer pointers index them; any other
/// pointer (`double *`, `unsigned char *`, `size_t *`, `cudaStream_t *`) points at variables
/// only, and its type's name is kept for the message that says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    /// `float *`, and `void *` (what `malloc` returns).
    Float,
    /// `int *`, `unsigned *`, `int32_t *`, `uint32_t *`.
    Int,
    Other(&'static str),
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
    /// `assert(cond)`, with the condition as written (for the message when it fails).
    Assert(Box<Expr>, String),
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

/// A parsed exercise file: the body of `main`, the other functions it defines, and where its
/// macros were expanded (to place diagnostics).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    pub main: Vec<Stmt>,
    pub functions: Vec<Function>,
    /// The file-scope variables and constants (`const int N = 1 << 20;`, `static float *h;`),
    /// declared in order before `main` runs.
    pub globals: Vec<VarDecl>,
    pub macros: MacroMap,
}

impl Program {
    /// The function of the file called `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// A diagnostic at `pos` (a position in the expanded text), placed where the learner wrote
    /// it: inside a macro's expansion, at the macro's use, saying so.
    pub fn diagnostic(&self, pos: Pos, message: impl Into<String>) -> super::Diagnostic {
        let message = message.into();
        match self.macros.locate(pos) {
            (p, Some(name)) => super::Diagnostic::at(
                p.line,
                p.column,
                format!("{message} (in the expansion of `{name}`)"),
            ),
            (p, None) => super::Diagnostic::at(p.line, p.column, message),
        }
    }
}

/// One top-level macro use in the file, as the expansion placed it. Lines never move (the
/// expansion goes on the use's line); columns do: the expansion takes the columns from
/// `start` to `end` of its line, and the text after the use resumes at `resume`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroUse {
    pub name: String,
    /// Where the learner wrote the macro's name.
    pub at: Pos,
    /// The columns of the use's line its expansion spans in the expanded text (`end`
    /// exclusive).
    pub start: u32,
    pub end: u32,
    /// Where the text after the use's `)` (or name) is in the expanded text, and where it is in
    /// the file.
    pub resume: Pos,
    pub resume_at: Pos,
}

/// Every top-level macro use, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MacroMap {
    pub uses: Vec<MacroUse>,
}

impl MacroMap {
    /// Where `pos` of the expanded text is in the learner's file, and the macro whose
    /// expansion holds it, if one does.
    pub fn locate(&self, pos: Pos) -> (Pos, Option<&str>) {
        if let Some(u) = self
            .uses
            .iter()
            .find(|u| u.at.line == pos.line && (u.start..u.end).contains(&pos.column))
        {
            return (u.at, Some(&u.name));
        }
        // The text after the last use before `pos` on its line is shifted by that use.
        let after = self
            .uses
            .iter()
            .filter(|u| u.resume.line == pos.line && u.resume.column <= pos.column)
            .max_by_key(|u| u.resume.column);
        match after {
            Some(u) => (
                Pos {
                    line: u.resume_at.line,
                    column: u.resume_at.column + (pos.column - u.resume.column),
                },
                None,
            ),
            None => (pos, None),
        }
    }
}
