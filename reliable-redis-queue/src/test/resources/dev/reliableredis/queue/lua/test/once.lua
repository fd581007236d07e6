-- LuaScriptTest: a script that includes a, and b, which includes a too: a is inlined once
local inlined = 0
include("test/a", "test/b")
return inlined
