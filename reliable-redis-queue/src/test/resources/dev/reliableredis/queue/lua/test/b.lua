-- LuaScriptTest: needs a before it
include("test/a")
inlined = inlined + 10
