/** Every keyboard shortcut, as the sheet lists them (ui/canvas/useShortcuts.ts implements them). */
export interface Shortcut {
  /** Key caps; 'Mod' shows as ⌘ on macOS and Ctrl elsewhere. */
  keys: readonly string[][]
  labelKey: string
}

export interface ShortcutGroup {
  titleKey: string
  items: readonly Shortcut[]
}

export const SHORTCUTS: readonly ShortcutGroup[] = [
  {
    titleKey: 'shortcuts:group.edit',
    items: [
      { keys: [['Mod', 'Z']], labelKey: 'shortcuts:undo' },
      {
        keys: [
          ['Mod', 'Shift', 'Z'],
          ['Ctrl', 'Y'],
        ],
        labelKey: 'shortcuts:redo',
      },
      { keys: [['Mod', 'C']], labelKey: 'shortcuts:copy' },
      { keys: [['Mod', 'X']], labelKey: 'shortcuts:cut' },
      { keys: [['Mod', 'V']], labelKey: 'shortcuts:paste' },
      { keys: [['Mod', 'D']], labelKey: 'shortcuts:duplicate' },
      { keys: [['Delete'], ['Backspace']], labelKey: 'shortcuts:delete' },
      { keys: [['C']], labelKey: 'shortcuts:connect' },
      { keys: [['Mod', 'S']], labelKey: 'shortcuts:save' },
    ],
  },
  {
    titleKey: 'shortcuts:group.select',
    items: [
      { keys: [['Mod', 'A']], labelKey: 'shortcuts:selectAll' },
      { keys: [['Shift', 'Drag']], labelKey: 'shortcuts:boxSelect' },
      { keys: [['Mod', 'Click']], labelKey: 'shortcuts:addToSelection' },
      { keys: [['Tab'], ['Enter']], labelKey: 'shortcuts:focusNode' },
      { keys: [['Esc']], labelKey: 'shortcuts:clearSelection' },
      { keys: [['Double-click']], labelKey: 'shortcuts:rename' },
    ],
  },
  {
    titleKey: 'shortcuts:group.view',
    items: [
      { keys: [['F']], labelKey: 'shortcuts:fit' },
      { keys: [['Shift', 'L']], labelKey: 'shortcuts:layout' },
      { keys: [['G']], labelKey: 'shortcuts:snap' },
      { keys: [['Mod', 'Enter']], labelKey: 'shortcuts:run' },
      { keys: [['?']], labelKey: 'shortcuts:sheet' },
    ],
  },
]
