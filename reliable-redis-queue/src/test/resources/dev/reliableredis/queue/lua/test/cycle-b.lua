-- LuaScriptTest: the other half of the cycle
include("test/cycle-a")
